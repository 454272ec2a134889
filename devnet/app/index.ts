/**
 * The devnet application: `createSvcApp(options)` returns the svc modules'
 * deterministic state machine behind the Application interface the chain
 * layer drives (see types.ts and devnet/README.md).
 */
import { decodeMessage, encodeMessage, lookupContractType } from '../../src/lib/contract';
import { DEFAULT_CHAIN_CONFIG, ChainConfig } from '../../src/lib/config';
import { canonicalAddress } from '../../src/lib/address';
import { SvcApp, Genesis, GenesisBalance, GAS_SCHEDULE } from './app';
import type { AppConfig } from './env';
import { moduleAccount } from './env';
import type { QueryResult } from './types';
import type { Retention } from './store';

export type {
  Application,
  AbciEvent,
  AbciAttribute,
  TxContext,
  TxMessage,
  TxResult,
  QueryResult,
  AccountInfo,
  AnteOutcome,
} from './types';
export { SvcApp, GAS_SCHEDULE };
export type { Genesis, GenesisBalance, AppConfig, Retention };
export type { AppStateSnapshot } from './app';
export { AppError } from './errors';
export { ROUTED_TYPE_URLS } from './router';
export { QUERY_PATHS } from './queries';
export { routeEscrowAddress } from './modules/bridge';
export { erc20 } from './modules/evm';

/** Version of the chain the devnet answers as by default. */
export const DEFAULT_APP_VERSION = '0.12.2';
/** The devnet's bridge authority when the genesis names none (a fixed, keyless address). */
export const DEFAULT_BRIDGE_AUTHORITY_NAME = 'bridge_authority';

export interface SvcAppOptions {
  genesis?: Genesis;
  /** application version; '0.8.3' answers as an old chain (no token registry, no RIGHT_OUT) */
  version?: string;
  /** overrides of the chain configuration (hrp, denoms, chain ids) */
  chain?: Partial<ChainConfig>;
  /**
   * false: EVM outcomes only as Cosmos EVM / Ethermint chains report them (the ethereum_tx event
   * and the MsgEthereumTxResponse), without svc.evm.v1.EventEthereumTxExecuted (default true)
   */
  evmOutcomeEvent?: boolean;
  /**
   * How many recent heights `abci_query` answers for (older: the pruned-height error of a
   * pruned SDK node) and how often pruning runs. Default: every height kept.
   */
  stateRetention?: Retention;
}

/** Creates the application with its genesis committed at height 0. */
export function createSvcApp(options: SvcAppOptions = {}): SvcApp {
  const chain: ChainConfig = { ...DEFAULT_CHAIN_CONFIG, ...options.chain };
  const genesis = options.genesis ?? {};
  const base = {
    chain,
    version: options.version ?? DEFAULT_APP_VERSION,
    bridgeAuthority: '',
    bridgeRelayers: [] as string[],
    evmOutcomeEvent: options.evmOutcomeEvent ?? true,
  };
  const config: AppConfig = {
    ...base,
    bridgeAuthority: genesis.bridgeAuthority
      ? canonicalAddress(genesis.bridgeAuthority, chain.hrp)
      : moduleAccount(base, DEFAULT_BRIDGE_AUTHORITY_NAME),
    bridgeRelayers: (genesis.bridgeRelayers ?? []).map((a) => canonicalAddress(a, chain.hrp)),
  };
  return new SvcApp(config, genesis, options.stateRetention);
}

/** Module account addresses (bech32) the app uses, for tests and scenario builders. */
export function moduleAccounts(app: SvcApp): Record<'fee_collector' | 'payout' | 'settlement' | 'waterfall', string> {
  return {
    fee_collector: moduleAccount(app.config, 'fee_collector'),
    payout: moduleAccount(app.config, 'payout'),
    settlement: moduleAccount(app.config, 'settlement'),
    waterfall: moduleAccount(app.config, 'waterfall'),
  };
}

/**
 * Runs a contract query with proto-JSON in and out (request/response types
 * from the path). Returns the QueryResult with `json` set on success.
 */
export function queryJson(
  app: { query(path: string, data: Uint8Array, height: number): QueryResult },
  path: string,
  request: Record<string, unknown>,
  height = 0,
): QueryResult & { json?: Record<string, unknown> } {
  const m = /^\/(.+)\.Query\/(\w+)$/.exec(path);
  const requestType = m ? `${m[1]}.Query${m[2]}Request` : '';
  const responseType = m ? `${m[1]}.Query${m[2]}Response` : '';
  const data = lookupContractType(requestType) ? encodeMessage(requestType, request) : new Uint8Array(0);
  const result = app.query(path, data, height);
  if (result.code !== 0 || !lookupContractType(responseType)) return result;
  return { ...result, json: decodeMessage(responseType, result.value) };
}
