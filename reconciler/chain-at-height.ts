/**
 * The chain's side of a reconciliation: svc queries (proto/svc/<module>/v1/query.proto) over
 * CometBFT `abci_query`, every one at the same height, each bounded by a timeout.
 *
 * An answer falls in one of four cases, because each means something different to a check:
 * - a value;
 * - `null`: the module answered with its own error (its codespace, e.g. asset not found), so
 *   the chain holds no such thing at that height: that is the chain's answer;
 * - QueryNotServed: `sdk` code 6 "unknown query path", the binary does not serve the query
 *   (an older chain): the check is reported as not evaluated;
 * - ChainUnavailable: anything else (the RPC unreachable, a timeout, an `sdk` error such as a
 *   pruned or future height, an answer at another height): the chain could not be asked, so
 *   the whole pass records nothing and is retried later.
 */
import { decodeMessage, encodeMessage } from '../src/lib/contract';
import { queryMethodTypes } from '../src/client/abci-query';
import { bytesToHex } from '../src/lib/bytes';
import type { AccrualAnswer } from '../src/store';

type Json = Record<string, unknown>;

/** The chain could not be asked at the height: nothing of this pass may be recorded. */
export class ChainUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainUnavailable';
  }
}

/** The binary does not serve this query path (sdk/6): reported as not evaluated. */
export class QueryNotServed extends Error {
  constructor(readonly path: string) {
    super(`the chain does not serve ${path}`);
    this.name = 'QueryNotServed';
  }
}

const SDK_UNKNOWN_REQUEST = 6;
/** Holders pages: the most rows the chain returns per page. */
const HOLDERS_PAGE = 1000;

export interface RegistryEntry {
  kind_id: number;
  bundle: boolean;
  address: string;
}

interface AbciResponse {
  code?: number;
  codespace?: string;
  log?: string;
  value?: string | null;
  height?: string;
}

/** Why a request got no answer: a timeout, or fetch's cause (ECONNREFUSED, …) rather than its bare "fetch failed". */
function transportFailure(e: unknown, timeoutMs: number): string {
  // duck-typed: errors from fetch may come from another realm (a test VM), where instanceof Error fails
  const err = e as { name?: unknown; message?: unknown; cause?: { message?: unknown } } | null;
  if (!err || typeof err.message !== 'string') return String(e);
  if (err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return typeof err.cause?.message === 'string' ? `${err.message}: ${err.cause.message}` : err.message;
}

const text = (v: unknown, fallback = '') => (v === undefined || v === null || v === '' ? fallback : String(v));

export class ChainAtHeight {
  /** abci queries asked so far */
  queries = 0;

  constructor(
    private readonly rpcUrl: string,
    readonly height: number,
    private readonly timeoutMs: number,
  ) {}

  /** The decoded answer, or null when the module answers with its own error (not found). */
  async query<T = Json>(path: string, request: Json): Promise<T | null> {
    const types = queryMethodTypes(path);
    const response = await this.abciQuery(path, encodeMessage(types.requestType, request));
    if (response.code) {
      const codespace = response.codespace ?? '';
      if (codespace === 'sdk' && response.code === SDK_UNKNOWN_REQUEST) throw new QueryNotServed(path);
      if (codespace === 'sdk' || codespace === '')
        throw new ChainUnavailable(
          `${path} at height ${this.height}: ${codespace}/${response.code} ${response.log ?? ''}`.trim(),
        );
      return null;
    }
    if (Number(response.height ?? this.height) !== this.height) {
      throw new ChainUnavailable(`${path}: asked at height ${this.height}, answered at ${response.height}`);
    }
    return decodeMessage(types.responseType, Buffer.from(response.value ?? '', 'base64')) as T;
  }

  private async abciQuery(path: string, data: Uint8Array): Promise<AbciResponse> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++this.queries,
      method: 'abci_query',
      params: { path, data: bytesToHex(data), height: String(this.height), prove: false },
    });
    let answer: { result?: { response?: AbciResponse }; error?: { message?: string; data?: string } };
    try {
      const r = await fetch(this.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      answer = (await r.json()) as typeof answer;
    } catch (e) {
      throw new ChainUnavailable(`abci_query ${path} at height ${this.height}: ${transportFailure(e, this.timeoutMs)}`);
    }
    if (answer.error || !answer.result?.response) {
      throw new ChainUnavailable(
        `abci_query ${path} at height ${this.height}: ${answer.error?.data ?? answer.error?.message ?? 'no response'}`,
      );
    }
    return answer.result.response;
  }

  /** Kind ids of an asset, or null when the chain has no such asset. */
  async kindIds(assetId: string): Promise<number[] | null> {
    const r = await this.query<{ kinds?: Json[] }>('/svc.asset.v1.Query/Asset', { asset_id: assetId });
    return r ? (r.kinds ?? []).map((k) => Number(k.kind_id ?? 0)) : null;
  }

  async kindSupply(assetId: string, kindId: number): Promise<{ supply: string; holder_count: number } | null> {
    const r = await this.query('/svc.asset.v1.Query/KindSupply', { asset_id: assetId, kind_id: kindId });
    return r ? { supply: text(r.supply, '0'), holder_count: Number(r.holder_count ?? 0) } : null;
  }

  /** Σ units over every holder of the kind (Query/Holders, paged). */
  async holdersSum(assetId: string, kindId: number): Promise<bigint | null> {
    let sum = 0n;
    for (let offset = 0; ; offset += HOLDERS_PAGE) {
      const page = await this.query<{ holders?: Json[]; total?: string }>('/svc.rights.v1.Query/Holders', {
        asset_id: assetId,
        kind_id: kindId,
        offset: String(offset),
        limit: HOLDERS_PAGE,
      });
      if (!page) return null;
      const holders = page.holders ?? [];
      for (const h of holders) sum += BigInt(text(h.units, '0'));
      if (holders.length === 0 || offset + holders.length >= Number(page.total ?? 0)) return sum;
    }
  }

  async accrual(assetId: string, kindId: number, denom: string): Promise<AccrualAnswer | null> {
    const r = await this.query<{ accrual?: Json }>('/svc.payout.v1.Query/Accrual', {
      asset_id: assetId,
      kind_id: kindId,
      denom,
    });
    if (!r) return null;
    const a = r.accrual ?? {};
    return {
      denom,
      index: text(a.index, '0'),
      carry_scaled: text(a.carry_scaled, '0'),
      module_held: text(a.module_held, '0'),
      total_distributed: text(a.total_distributed, '0'),
      total_paid: text(a.total_paid, '0'),
      distributions_count: Number(a.distributions_count ?? 0),
    };
  }

  /** The asset's precompile registry (chain 0.9.0 on); QueryNotServed on an older chain. */
  async tokenRegistry(assetId: string): Promise<RegistryEntry[] | null> {
    const r = await this.query<{ entries?: Json[] }>('/svc.asset.v1.Query/TokenRegistry', { asset_id: assetId });
    return r
      ? (r.entries ?? []).map((e) => ({
          kind_id: Number(e.kind_id ?? 0),
          bundle: e.bundle === true,
          address: text(e.address),
        }))
      : null;
  }

  /** What the chain holds for a route (escrow, synthetic supply or escrow units). */
  async escrowBalance(routeId: string): Promise<bigint | null> {
    const r = await this.query('/svc.bridge.v1.Query/EscrowBalance', { route_id: routeId });
    return r ? BigInt(text(r.amount, '0')) : null;
  }

  /** The route's direction and the chain's own counters. */
  async route(routeId: string): Promise<{ direction: string; outbound: bigint; inbound: bigint } | null> {
    const r = await this.query<{ route?: Json; counters?: Json }>('/svc.bridge.v1.Query/Route', { route_id: routeId });
    if (!r) return null;
    return {
      direction: text(r.route?.direction),
      outbound: BigInt(text(r.counters?.outbound, '0')),
      inbound: BigInt(text(r.counters?.inbound, '0')),
    };
  }
}
