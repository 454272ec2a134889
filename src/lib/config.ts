/**
 * Chain configuration (address prefix, denoms, chain ids).
 *
 * The mapping sandbox gives no guarantee that `process.env` exists when the bundle
 * is evaluated, so nothing here reads the environment by itself: `loadChainConfig`
 * takes the environment object as a parameter, and `DEFAULT_CHAIN_CONFIG` is a plain
 * constant that library functions use for their default `hrp`.
 */
import { ConfigError } from './errors';

export interface ChainConfig {
  /** bech32 human-readable prefix of account addresses (README, chain parameters). */
  readonly hrp: string;
  /** gas / fee denom (`<gas_denom>`). */
  readonly gasDenom: string;
  /** settlement stable denom (`<stable_denom>`). */
  readonly stableDenom: string;
  /** CometBFT chain id (must equal `status.node_info.network`). */
  readonly chainId: string;
  /** EIP-155 chain id of the EVM module. A small identifier, not an amount, so a JS number. */
  readonly evmChainId: number;
}

/** Devnet defaults; every field can be overridden through `loadChainConfig`. */
export const DEFAULT_CHAIN_CONFIG: ChainConfig = Object.freeze({
  hrp: 'svc',
  gasDenom: 'usvc',
  stableDenom: 'uusdc',
  chainId: 'svc-devnet-1',
  evmChainId: 9000,
});

/** Environment variable names read by `loadChainConfig`. */
export const CHAIN_CONFIG_ENV = Object.freeze({
  hrp: 'SVC_HRP',
  gasDenom: 'SVC_GAS_DENOM',
  stableDenom: 'SVC_STABLE_DENOM',
  chainId: 'SVC_CHAIN_ID',
  evmChainId: 'SVC_EVM_CHAIN_ID',
});

// Restricted on purpose to the lower-case subset of BIP-173 prefixes (1..83 printable chars):
// canonical addresses are lower-case, so an upper-case or symbol prefix would only confuse.
const HRP_RE = /^[a-z]{1,20}$/;
// Cosmos SDK coin denom regex (types/coin.go reDnmString).
const DENOM_RE = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;
// CometBFT caps chain ids at 50 characters; whitespace/control characters are refused as typos.
const CHAIN_ID_MAX = 50;
const CHAIN_ID_RE = /^[\x21-\x7e]+$/;
const UINT_RE = /^[1-9][0-9]*$/;

export function isValidHrp(s: string): boolean {
  return typeof s === 'string' && HRP_RE.test(s);
}

export function isValidDenom(s: string): boolean {
  return typeof s === 'string' && DENOM_RE.test(s);
}

export function isValidChainId(s: string): boolean {
  return typeof s === 'string' && s.length > 0 && s.length <= CHAIN_ID_MAX && CHAIN_ID_RE.test(s);
}

/**
 * Reads SVC_HRP, SVC_GAS_DENOM, SVC_STABLE_DENOM, SVC_CHAIN_ID and SVC_EVM_CHAIN_ID from
 * `env` (e.g. `process.env`). A variable that is unset or empty takes its devnet default
 * (the `${VAR:-default}` shell convention); a set but invalid value throws `ConfigError`
 * naming the variable, so a misconfigured deployment fails at start-up.
 */
export function loadChainConfig(env: Readonly<Record<string, string | undefined>> = {}): ChainConfig {
  const read = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const hrp = read(CHAIN_CONFIG_ENV.hrp) ?? DEFAULT_CHAIN_CONFIG.hrp;
  if (!isValidHrp(hrp))
    throw new ConfigError(CHAIN_CONFIG_ENV.hrp, `invalid bech32 prefix "${hrp}" (expected [a-z]{1,20})`);

  const gasDenom = read(CHAIN_CONFIG_ENV.gasDenom) ?? DEFAULT_CHAIN_CONFIG.gasDenom;
  if (!isValidDenom(gasDenom)) throw new ConfigError(CHAIN_CONFIG_ENV.gasDenom, `invalid denom "${gasDenom}"`);

  const stableDenom = read(CHAIN_CONFIG_ENV.stableDenom) ?? DEFAULT_CHAIN_CONFIG.stableDenom;
  if (!isValidDenom(stableDenom)) throw new ConfigError(CHAIN_CONFIG_ENV.stableDenom, `invalid denom "${stableDenom}"`);

  const chainId = read(CHAIN_CONFIG_ENV.chainId) ?? DEFAULT_CHAIN_CONFIG.chainId;
  if (!isValidChainId(chainId)) {
    throw new ConfigError(
      CHAIN_CONFIG_ENV.chainId,
      `invalid chain id "${chainId}" (1..${CHAIN_ID_MAX} printable characters, no spaces)`,
    );
  }

  const evmRaw = read(CHAIN_CONFIG_ENV.evmChainId);
  let evmChainId = DEFAULT_CHAIN_CONFIG.evmChainId;
  if (evmRaw !== undefined) {
    if (!UINT_RE.test(evmRaw) || !Number.isSafeInteger(Number(evmRaw))) {
      throw new ConfigError(CHAIN_CONFIG_ENV.evmChainId, `invalid EVM chain id "${evmRaw}" (positive decimal integer)`);
    }
    evmChainId = Number(evmRaw);
  }

  return Object.freeze({ hrp, gasDenom, stableDenom, chainId, evmChainId });
}
