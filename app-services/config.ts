/**
 * Settings of the app services, read from the environment by src/runtime/config.ts (npm start
 * and the app-services container). Their variables, defaults, bounds and descriptions are one
 * table (settings.ts); the defaults and the variable list here are read from it.
 */
import type { KeySecret } from './keys';
import type { MarketSettings } from './market/eligibility';
import type { SharedRiskSettings } from './risk/exposure';
import { defaultsOf, variablesOf } from '../src/lib/settings';
import { APP_SETTINGS } from './settings';

export interface LenderSettings {
  /** LENDER_LTV_BPS: principal as a share of the pledged shares' value */
  ltvBps: number;
  /** LENDER_LIQUIDATION_LTV_BPS: the pledges are exercised at this loan-to-value */
  liquidationLtvBps: number;
  /** LENDER_MAX_PRINCIPAL: base units of the stable denom */
  maxPrincipal: bigint;
  /** LENDER_PLEDGE_WINDOW_S (in ms here): a loan's pledges all within this much block time */
  pledgeWindowMs: number;
  /** LENDER_POLL_MS: how often the acting lender looks at pledges, proposals and prices */
  pollMs: number;
  /** LENDER_CLAIM_MS: how often it claims the income routed to it */
  claimEveryMs: number;
  /** LENDER_MAX_POOL_SHARE_BPS: an asset's outstanding principal at most this share of its pool's stable reserve */
  maxPoolShareBps: number;
  /** LENDER_MAX_PER_BORROWER: base units of outstanding principal per borrower */
  maxPerBorrower: bigint;
  /** LENDER_MAX_PER_ASSET: base units of outstanding principal per asset */
  maxPerAsset: bigint;
  /** LENDER_MAX_TOTAL: base units of outstanding principal in all */
  maxTotal: bigint;
  /** LENDER_DUST: a proposal to the lender whose stable legs sum to at most this is left to expire, not cancelled */
  dust: bigint;
  /** LENDER_BATCH_MAX: messages in one release or cancel tx (one of each per pass) */
  batchMax: number;
  /** LENDER_FROM_HEIGHT: pledges created below this height belong to an earlier lender and are left alone; unset: 0, or the embedded devnet's first live height */
  fromHeight?: number;
}

export interface AppServicesSettings {
  /** their own PostgreSQL schema (APP_SCHEMA, default app) */
  schema: string;
  /** LENDER_KEY / DESK_KEY; undefined: that service does not act (its reads still answer) */
  keys: { lender?: KeySecret; desk?: KeySecret };
  /** APP_TX_FEE: fee of every tx they sign, in base units of the gas denom */
  txFee: bigint;
  /** APP_TX_GAS: the most gas one tx may ask for (estimates and out-of-gas retries stop there) */
  txGas: bigint;
  /** APP_GAS_ADJUSTMENT: a tx's gas limit is its simulated gas times this */
  gasAdjustment: number;
  /** APP_TX_GAS_BASE, APP_TX_GAS_PER_MSG: the estimate when the chain serves no simulation */
  txGasBase: bigint;
  txGasPerMsg: bigint;
  /** APP_RETRY_BASE_MS, APP_RETRY_MAX_MS: backoff before a failed action's next attempt (doubling, capped) */
  retryBaseMs: number;
  retryMaxMs: number;
  /** APP_INCLUSION_TIMEOUT_MS: how long an action waits for its block before it is left to the reconcile loop */
  inclusionTimeoutMs: number;
  /** APP_RECONCILE_MS: how often an acting process settles its open intents */
  reconcileMs: number;
  /** APP_LOCK_RETRY_MS: how often a standby process tries to take a key's actor lock */
  lockRetryMs: number;
  /** APP_WATCH_MS: how often the services ask the chain for a new block to read (what is addressed to them) */
  watchMs: number;
  /** LAUNCHPAD_RATE_LIMIT: metadata POSTs per client address per 10 minutes */
  launchpadRateLimit: number;
  lender: LenderSettings;
  desk: DeskSettings;
  /** the robust price and eligibility the lender and the desk share (PRICE_*, MARKET_*) */
  market: MarketSettings;
  /** the caps and loss rules the lender and the desk share (RISK_*) */
  risk: RiskSettings;
}

export interface RiskSettings extends SharedRiskSettings {
  /** RISK_DESK_LOSS_TOLERANCE_BPS: a desk position marked this far (of what it paid) below its cost is charged as a loss */
  deskLossToleranceBps: number;
}

export interface DeskSettings {
  /** DESK_RFQ_LIMIT: RFQs per requester address per rolling 10 minutes */
  rfqLimit: number;
  /** DESK_MAX_TRADE: base units of the stable denom per trade */
  maxTrade: bigint;
  /** DESK_POLL_MS: how often the acting desk proposes recorded RFQs and answers proposals */
  pollMs: number;
  /** DESK_QUOTE_CACHE_MS: how long a quote book is served at most (it is rebuilt at every new chain or indexed height anyway) */
  quoteCacheMs: number;
  /** DESK_RFQ_IP_LIMIT: RFQs per HTTP client address (req.ip) per rolling 10 minutes */
  rfqIpLimit: number;
  /** DESK_MAX_ESCROW_BPS: outstanding RFQ escrows may hold at most this share of any one inventory (the stable denom, or a kind) */
  maxEscrowBps: number;
  /** DESK_MAX_ESCROW_PER_ADDRESS_BPS: those of one requester address at most this share */
  maxEscrowPerAddressBps: number;
  /** DESK_MAX_POSITION: base units of the stable denom a purchase may bring the desk's exposure to one asset to (its holding at mid, purchases in flight, charged losses) */
  maxPosition: bigint;
  /** DESK_MAX_POOL_SHARE_BPS: the desk's exposure to an asset at most this share of its pool's stable reserve */
  maxPoolShareBps: number;
  /** DESK_MAX_TOTAL: the desk's exposure to every asset together */
  maxTotal: bigint;
  /** DESK_DUST: proposals to the desk escrowing less than this (base units of the stable denom, at the desk's mid) are left to expire */
  dust: bigint;
  /** DESK_CANCEL_BATCH: proposals the desk cancels in one tx, one tx per pass */
  cancelBatch: number;
}

/** Every setting at its default, from the table (the keys have none). */
export const APP_SERVICES_DEFAULTS = (({ keys: _keys, ...settings }) => defaultsOf(settings))(
  APP_SETTINGS,
) as unknown as Readonly<Omit<AppServicesSettings, 'keys'>>;

/** Every variable the app services read, with its default as documented. */
export const APP_SERVICES_VARIABLES: Record<string, string> = variablesOf(APP_SETTINGS);
