/**
 * What the app services ask of the chain, over CometBFT RPC: broadcast a signed tx
 * (`broadcast_tx_sync`: CheckTx only), find a committed tx by hash (`tx`, the node's tx
 * index) or in one block (`block` + `block_results`, the chain's own record), read an
 * account's number and committed sequence (auth `Query/Account` through `abci_query`) and
 * simulate a tx for its gas (`/cosmos.tx.v1beta1.Service/Simulate`).
 *
 * A tx the RPC node already holds answers "tx already exists in cache" (a JSON-RPC error,
 * not a CheckTx code); a rebroadcast after a crash relies on that being treated as accepted.
 */
import { Comet38Client, type CometClient } from '@cosmjs/tendermint-rpc';
import { toHex, fromHex } from '@cosmjs/encoding';
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { QueryBalanceRequest, QueryBalanceResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { SimulateRequest, SimulateResponse } from 'cosmjs-types/cosmos/tx/v1beta1/service';
import { txHash } from './tx-hash';

/** CheckTx's answer to a broadcast. */
export interface BroadcastResult {
  /** upper-case hex consensus hash */
  hash: string;
  code: number;
  codespace: string;
  log: string;
  /** the node already had these exact bytes (in its mempool or committed) */
  alreadyKnown: boolean;
}

export interface TxEvent {
  type: string;
  attributes: { key: string; value: string }[];
}

/** A committed tx: its height and its DeliverTx outcome. */
export interface CommittedTx {
  hash: string;
  height: number;
  code: number;
  codespace: string;
  log: string;
  events: TxEvent[];
}

/** A committed block as the services watch it: its time and each tx's outcome and events, in block order. */
export interface CommittedBlock {
  height: number;
  /** the block's time, unix ms */
  timeMs: number;
  txs: Omit<CommittedTx, 'height'>[];
}

export interface AccountState {
  accountNumber: bigint;
  /** the committed sequence: the one the account's next tx must carry */
  sequence: bigint;
  /** the height the account was read at */
  height: number;
}

/** A simulation's answer: the gas the tx used, or why the chain gave none. */
export type Simulation = { gasUsed: bigint } | { error: string };

export const SIMULATE_PATH = '/cosmos.tx.v1beta1.Service/Simulate';

export interface ChainClient {
  readonly chainId: string;
  broadcast(tx: Uint8Array): Promise<BroadcastResult>;
  /** from the node's tx index: null while the tx is not in a committed block, or when the index misses it (lag, pruning) */
  findTx(hash: string): Promise<CommittedTx | null>;
  /** from the block itself: null when block `height` holds no tx of that hash; throws when the block cannot be read */
  findTxInBlock(hash: string, height: number): Promise<CommittedTx | null>;
  /** every tx of a committed block with its outcome and events (`block` + `block_results`); throws when it cannot be read */
  committedBlock(height: number): Promise<CommittedBlock>;
  /** null for an address the chain has never seen; at `height` (default the latest) */
  account(address: string, height?: number): Promise<AccountState | null>;
  /** runs the tx (signatures may be empty) on the latest state without keeping anything */
  simulate(tx: Uint8Array): Promise<Simulation>;
  /** the bank balance of one denom */
  balance(address: string, denom: string): Promise<bigint>;
  height(): Promise<number>;
  /** the latest block's height and time (unix ms) */
  latestBlock(): Promise<{ height: number; timeMs: number }>;
  disconnect(): void;
}

const ALREADY_KNOWN_RE = /tx already exists in cache/i;
const NOT_FOUND_RE = /not found/i;

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

class CometChainClient implements ChainClient {
  constructor(
    private readonly client: CometClient,
    readonly chainId: string,
  ) {}

  async broadcast(tx: Uint8Array): Promise<BroadcastResult> {
    try {
      const r = await this.client.broadcastTxSync({ tx });
      return {
        hash: toHex(r.hash).toUpperCase(),
        code: r.code,
        codespace: r.codespace ?? '',
        log: r.log ?? '',
        alreadyKnown: false,
      };
    } catch (e) {
      if (!ALREADY_KNOWN_RE.test(errorText(e))) throw e;
      return { hash: '', code: 0, codespace: '', log: 'tx already exists in cache', alreadyKnown: true };
    }
  }

  async findTx(hash: string): Promise<CommittedTx | null> {
    try {
      const r = await this.client.tx({ hash: fromHex(hash) });
      const events = r.result.events.map((e) => ({
        type: e.type,
        attributes: e.attributes.map((a) => ({ key: String(a.key), value: String(a.value) })),
      }));
      return {
        hash: toHex(r.hash).toUpperCase(),
        height: r.height,
        code: r.result.code,
        codespace: r.result.codespace ?? '',
        log: r.result.log ?? '',
        events,
      };
    } catch (e) {
      if (NOT_FOUND_RE.test(errorText(e))) return null;
      throw e;
    }
  }

  async findTxInBlock(hash: string, height: number): Promise<CommittedTx | null> {
    const tx = (await this.committedBlock(height)).txs.find((t) => t.hash === hash);
    return tx ? { ...tx, height } : null;
  }

  async committedBlock(height: number): Promise<CommittedBlock> {
    const [{ block }, { results }] = await Promise.all([this.client.block(height), this.client.blockResults(height)]);
    if (results.length !== block.txs.length)
      throw new Error(`block_results ${height} has ${results.length} results for ${block.txs.length} txs`);
    return {
      height,
      timeMs: block.header.time.getTime(),
      txs: block.txs.map((tx, i) => ({
        hash: txHash(tx),
        code: results[i].code,
        codespace: results[i].codespace ?? '',
        log: results[i].log ?? '',
        events: results[i].events.map((e) => ({
          type: e.type,
          attributes: e.attributes.map((a) => ({ key: String(a.key), value: String(a.value) })),
        })),
      })),
    };
  }

  async simulate(tx: Uint8Array): Promise<Simulation> {
    try {
      const data = SimulateRequest.encode(SimulateRequest.fromPartial({ txBytes: tx })).finish();
      const r = await this.client.abciQuery({ path: SIMULATE_PATH, data });
      if (r.code) return { error: `${r.codespace}/${r.code} ${r.log ?? ''}` };
      const gasUsed = SimulateResponse.decode(r.value).gasInfo?.gasUsed;
      return gasUsed ? { gasUsed } : { error: 'the simulation reported no gas' };
    } catch (e) {
      return { error: errorText(e) };
    }
  }

  async account(address: string, height?: number): Promise<AccountState | null> {
    const data = QueryAccountRequest.encode({ address }).finish();
    const r = await this.client.abciQuery({ path: '/cosmos.auth.v1beta1.Query/Account', data, height });
    if (r.code) {
      if (NOT_FOUND_RE.test(r.log ?? '')) return null;
      throw new Error(`auth Account query for ${address} failed: ${r.codespace}/${r.code} ${r.log ?? ''}`);
    }
    const any = QueryAccountResponse.decode(r.value).account;
    if (!any || any.typeUrl !== '/cosmos.auth.v1beta1.BaseAccount')
      throw new Error(`auth Account query for ${address}: unsupported account type ${any?.typeUrl ?? '(none)'}`);
    const base = BaseAccount.decode(any.value);
    return { accountNumber: base.accountNumber, sequence: base.sequence, height: r.height ?? 0 };
  }

  async balance(address: string, denom: string): Promise<bigint> {
    const r = await this.client.abciQuery({
      path: '/cosmos.bank.v1beta1.Query/Balance',
      data: QueryBalanceRequest.encode({ address, denom }).finish(),
    });
    if (r.code) throw new Error(`bank Balance query for ${address} failed: ${r.codespace}/${r.code} ${r.log ?? ''}`);
    return BigInt(QueryBalanceResponse.decode(r.value).balance?.amount ?? '0');
  }

  async height(): Promise<number> {
    return (await this.client.status()).syncInfo.latestBlockHeight;
  }

  async latestBlock(): Promise<{ height: number; timeMs: number }> {
    const { syncInfo } = await this.client.status();
    return { height: syncInfo.latestBlockHeight, timeMs: syncInfo.latestBlockTime.getTime() };
  }

  disconnect(): void {
    this.client.disconnect();
  }
}

/** Connects to `rpcUrl`; the chain id is the chain's own (checked against `expectedChainId` when given). */
export async function connectChain(rpcUrl: string, expectedChainId?: string): Promise<ChainClient> {
  const client = await Comet38Client.connect(rpcUrl);
  const chainId = (await client.status()).nodeInfo.network;
  if (expectedChainId && expectedChainId !== chainId) {
    client.disconnect();
    throw new Error(`the chain at ${rpcUrl} is ${chainId}, not ${expectedChainId}`);
  }
  return new CometChainClient(client, chainId);
}
