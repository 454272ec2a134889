/**
 * The app services' settings as one table: for each, the environment variable, its default, its
 * bounds and what it does. The parser (src/runtime/config.ts), the defaults (APP_SERVICES_DEFAULTS),
 * the variable list (APP_SERVICES_VARIABLES) and the documentation's tables (docs/app-services.md,
 * docs/running.md: tests/unit/app-services/settings-docs.test.ts keeps them in step) all come from
 * here. The table has the shape of the settings, so each row sits where its value goes.
 */
import { DEFAULT_LENDER_TERMS } from './lender/terms';

interface Described {
  /** the environment variable */
  env: string;
  /** what it does, as docs/app-services.md's tables say it (Markdown) */
  description: string;
}

/** A whole number from `min` to `max`. */
export interface IntegerSetting extends Described {
  kind: 'integer';
  default: number;
  min: number;
  max: number;
}

/** A whole number of seconds from `min` to `max`; the setting holds it in milliseconds. */
export interface SecondsSetting extends Described {
  kind: 'seconds';
  /** in seconds, as the variable is written */
  default: number;
  min: number;
  max: number;
}

/** A decimal number from `min` to `max`. */
export interface DecimalSetting extends Described {
  kind: 'decimal';
  default: number;
  min: number;
  max: number;
}

/** A whole number of base units (bigint) from `min` to `max`. */
export interface BigintSetting extends Described {
  kind: 'bigint';
  default: bigint;
  min: bigint;
  max: bigint;
}

/** A setting the parser checks in its own way (a schema name, a key, a list, an optional height). */
export interface SpecialSetting<T> extends Described {
  kind: 'special';
  /** undefined: unset unless the launcher fills it in */
  default: T;
  /** the default as the variable list shows it */
  shown: string;
  /** the default as the documentation's tables show it (Markdown) */
  documented: string;
}

export type AppSetting = IntegerSetting | SecondsSetting | DecimalSetting | BigintSetting | SpecialSetting<unknown>;

const integer = (env: string, dflt: number, min: number, max: number, description: string): IntegerSetting => ({
  kind: 'integer',
  env,
  default: dflt,
  min,
  max,
  description,
});
const seconds = (env: string, dflt: number, min: number, max: number, description: string): SecondsSetting => ({
  kind: 'seconds',
  env,
  default: dflt,
  min,
  max,
  description,
});
const decimal = (env: string, dflt: number, min: number, max: number, description: string): DecimalSetting => ({
  kind: 'decimal',
  env,
  default: dflt,
  min,
  max,
  description,
});
const bigint = (env: string, dflt: bigint, min: bigint, max: bigint, description: string): BigintSetting => ({
  kind: 'bigint',
  env,
  default: dflt,
  min,
  max,
  description,
});
const special = <T>(
  env: string,
  dflt: T,
  shown: string,
  documented: string,
  description: string,
): SpecialSetting<T> => ({
  kind: 'special',
  env,
  default: dflt,
  shown,
  documented,
  description,
});

export const APP_SETTINGS = {
  schema: special(
    'APP_SCHEMA',
    'app',
    'app',
    '`app`',
    "their own PostgreSQL schema; must differ from `DB_SCHEMA` (the indexer's schema is read-only to them)",
  ),
  txFee: bigint(
    'APP_TX_FEE',
    5000n,
    0n,
    10n ** 30n,
    'fee of every tx they sign, in base units of the gas denom (`SVC_GAS_DENOM`), whatever its gas (the devnet has no minimum gas price)',
  ),
  txGas: bigint(
    'APP_TX_GAS',
    2_000_000n,
    1n,
    10n ** 12n,
    'the most gas one tx may ask for: estimates and out-of-gas retries stop there',
  ),
  gasAdjustment: decimal(
    'APP_GAS_ADJUSTMENT',
    1.3,
    1,
    10,
    "a tx's gas limit is its simulated gas (`/cosmos.tx.v1beta1.Service/Simulate`) times this (1–10)",
  ),
  txGasBase: bigint(
    'APP_TX_GAS_BASE',
    100_000n,
    1n,
    10n ** 12n,
    'the estimate when the chain serves no Simulate: this …',
  ),
  txGasPerMsg: bigint('APP_TX_GAS_PER_MSG', 40_000n, 0n, 10n ** 12n, '… plus this per message'),
  retryBaseMs: integer(
    'APP_RETRY_BASE_MS',
    2000,
    10,
    3_600_000,
    "wait after an action's first failed or rejected attempt before the next (`performRetrying`); doubled after each further one …",
  ),
  retryMaxMs: integer('APP_RETRY_MAX_MS', 60_000, 10, 86_400_000, '… up to this'),
  inclusionTimeoutMs: integer(
    'APP_INCLUSION_TIMEOUT_MS',
    30_000,
    1000,
    3_600_000,
    'how long an action waits for its tx to be in a block before it is left to the reconcile loop (the caller sees the timeout)',
  ),
  reconcileMs: integer('APP_RECONCILE_MS', 5000, 100, 3_600_000, 'how often the acting process settles open intents'),
  lockRetryMs: integer(
    'APP_LOCK_RETRY_MS',
    5000,
    100,
    3_600_000,
    "how often a standby process tries to take a key's actor lock",
  ),
  watchMs: integer(
    'APP_WATCH_MS',
    200,
    20,
    60_000,
    'how often the services ask the chain for a new committed block to read ("Watching the chain")',
  ),
  launchpadRateLimit: integer(
    'LAUNCHPAD_RATE_LIMIT',
    20,
    1,
    1_000_000,
    'metadata POSTs per client address per rolling 10 minutes',
  ),
  keys: {
    lender: special(
      'LENDER_KEY',
      undefined,
      '(embedded devnet: its lender account; otherwise unset: the lender does not act)',
      'embedded devnet: its `lender` account; otherwise unset',
      "the lender's key: 64 hex characters (secp256k1 private key, `0x` optional) or a 12–24 word BIP-39 mnemonic (path `m/44'/118'/0'/0/0`). Unset: the lender does not act",
    ),
    desk: special(
      'DESK_KEY',
      undefined,
      '(embedded devnet: its desk account; otherwise unset: the desk does not act)',
      'embedded devnet: its `desk` account; otherwise unset',
      "the desk's key, same forms",
    ),
  },
  lender: {
    ltvBps: integer(
      'LENDER_LTV_BPS',
      DEFAULT_LENDER_TERMS.ltvBps,
      1,
      10_000,
      "principal as a share of the pledged shares' value",
    ),
    liquidationLtvBps: integer(
      'LENDER_LIQUIDATION_LTV_BPS',
      DEFAULT_LENDER_TERMS.liquidationLtvBps,
      1,
      10_000,
      'the pledges are exercised at this loan-to-value (must be above `LENDER_LTV_BPS`)',
    ),
    maxPrincipal: bigint(
      'LENDER_MAX_PRINCIPAL',
      DEFAULT_LENDER_TERMS.maxPrincipal,
      1n,
      10n ** 30n,
      'the largest principal, in base units of the stable denom',
    ),
    pledgeWindowMs: seconds(
      'LENDER_PLEDGE_WINDOW_S',
      DEFAULT_LENDER_TERMS.pledgeWindowMs / 1000,
      1,
      86_400,
      'all pledges of a loan within this many seconds of block time',
    ),
    pollMs: integer(
      'LENDER_POLL_MS',
      1000,
      100,
      3_600_000,
      'how often the lender looks at pledges, proposals and prices',
    ),
    claimEveryMs: integer('LENDER_CLAIM_MS', 30_000, 1000, 86_400_000, 'how often it claims the income routed to it'),
    maxPoolShareBps: integer(
      'LENDER_MAX_POOL_SHARE_BPS',
      1000,
      0,
      10_000,
      "the lender's exposure to an asset (principal out and charged losses) at most this share of its pool's stable reserve (at the lower of now and the twap)",
    ),
    maxPerBorrower: bigint(
      'LENDER_MAX_PER_BORROWER',
      5_000_000_000n,
      0n,
      10n ** 30n,
      'exposure to one borrower, base units of the stable denom',
    ),
    maxPerAsset: bigint('LENDER_MAX_PER_ASSET', 10_000_000_000n, 0n, 10n ** 30n, 'exposure to one asset'),
    maxTotal: bigint('LENDER_MAX_TOTAL', 50_000_000_000n, 0n, 10n ** 30n, 'exposure to every asset'),
    dust: bigint(
      'LENDER_DUST',
      1_000_000n,
      0n,
      10n ** 30n,
      'a proposal to the lender moving at most this much of the stable denom is left to expire, not cancelled',
    ),
    batchMax: integer(
      'LENDER_BATCH_MAX',
      30,
      1,
      100,
      'messages in one release or one cancel tx (at most one of each per pass)',
    ),
    fromHeight: special(
      'LENDER_FROM_HEIGHT',
      undefined,
      '(embedded devnet: the first live height; otherwise 0, every pledge)',
      'embedded devnet: its first live height; otherwise `0`',
      "pledges created below this height are an earlier lender's and left alone: the embedded devnet's generated history has a scripted lender that already paid its loans",
    ),
  },
  desk: {
    rfqLimit: integer('DESK_RFQ_LIMIT', 5, 1, 1_000_000, 'RFQs per requester address per rolling 10 minutes'),
    maxTrade: bigint(
      'DESK_MAX_TRADE',
      5_000_000_000n,
      1n,
      10n ** 30n,
      'the largest trade, in base units of the stable denom',
    ),
    pollMs: integer(
      'DESK_POLL_MS',
      500,
      100,
      3_600_000,
      'how often the acting desk proposes recorded RFQs and answers proposals',
    ),
    quoteCacheMs: integer(
      'DESK_QUOTE_CACHE_MS',
      2000,
      0,
      3_600_000,
      'how long a quote book is served at most (it is rebuilt at every new chain or indexed height anyway)',
    ),
    rfqIpLimit: integer(
      'DESK_RFQ_IP_LIMIT',
      20,
      1,
      1_000_000,
      "RFQs per HTTP client address per rolling 10 minutes (four addresses' worth: one client cannot rotate addresses past it)",
    ),
    maxEscrowBps: integer(
      'DESK_MAX_ESCROW_BPS',
      5000,
      0,
      10_000,
      'outstanding RFQ escrows may hold at most this share (basis points) of any one inventory: the stable denom, or a kind. Half: what RFQs nobody accepts can freeze; the rest stays quoted',
    ),
    maxEscrowPerAddressBps: integer(
      'DESK_MAX_ESCROW_PER_ADDRESS_BPS',
      1000,
      0,
      10_000,
      'those of one requester address at most this share (10 %: a real trade fits; five addresses are needed to reach the global cap)',
    ),
    maxPosition: bigint(
      'DESK_MAX_POSITION',
      100_000_000_000n,
      0n,
      10n ** 30n,
      'base units of the stable denom (100,000) a purchase may bring the desk\'s exposure to one asset to ("Risk")',
    ),
    maxPoolShareBps: integer(
      'DESK_MAX_POOL_SHARE_BPS',
      1000,
      0,
      10_000,
      "the desk's exposure to an asset at most this share of its pool's stable reserve (at the lower of now and the twap): what the pool could buy back",
    ),
    maxTotal: bigint('DESK_MAX_TOTAL', 50_000_000_000n, 0n, 10n ** 30n, "the desk's exposure to every asset together"),
    dust: bigint(
      'DESK_DUST',
      1_000_000n,
      0n,
      10n ** 30n,
      "proposals to the desk escrowing less (base units of the stable denom, 1 stable, at the desk's mid) are left to expire instead of being cancelled",
    ),
    cancelBatch: integer(
      'DESK_CANCEL_BATCH',
      20,
      1,
      100,
      'refused proposals cancelled in one tx, one tx per pass (20 cancels are about 210,000 gas, within `APP_TX_GAS`)',
    ),
  },
  market: {
    windowBlocks: integer('PRICE_WINDOW_BLOCKS', 100, 1, 100_000, 'committed heights twap is the mean of'),
    maxDivergenceBps: integer(
      'PRICE_MAX_DIVERGENCE_BPS',
      2000,
      0,
      1_000_000,
      'spot and twap further apart than this: no loan opens, the desk does not quote that side',
    ),
    minPoolAgeBlocks: integer('MARKET_MIN_POOL_AGE_BLOCKS', 100, 0, 100_000_000, 'a younger pool values nothing'),
    minPoolReserve: bigint(
      'MARKET_MIN_POOL_RESERVE',
      100_000_000n,
      0n,
      10n ** 30n,
      'a pool with less of the stable denom (base units) values nothing',
    ),
    trustedReleasers: special(
      'MARKET_TRUSTED_RELEASERS',
      [] as string[],
      "(embedded devnet: the scenario's releaser account; otherwise none)",
      "embedded devnet: the scenario's `releaser` account; otherwise none",
      "comma-separated addresses an asset's releaser role may hold and the asset still be collateral (never the borrower)",
    ),
    allowlist: special(
      'MARKET_ALLOWLIST',
      [] as string[],
      '(none)',
      'none',
      "comma-separated asset ids eligible whatever their pool's age, depth or releaser",
    ),
  },
  risk: {
    maxPerIssuer: bigint(
      'RISK_MAX_PER_ISSUER',
      30_000_000_000n,
      0n,
      10n ** 30n,
      "the lender's and the desk's exposure to one issuer's assets together",
    ),
    lossCooloffMs: seconds(
      'RISK_LOSS_COOLOFF_S',
      86_400,
      0,
      365 * 86_400,
      'after a loss, no new loan or bid for its asset or any asset of its issuer for this long (`0`: none)',
    ),
    deskLossToleranceBps: integer(
      'RISK_DESK_LOSS_TOLERANCE_BPS',
      2000,
      0,
      10_000,
      'a desk holding marked this far below what the desk paid for it (share of the cost) is charged as a loss',
    ),
  },
} as const;
