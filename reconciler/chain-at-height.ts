/**
 * The chain's side of a reconciliation: svc queries (proto/svc/<module>/v1/query.proto) through
 * src/client's ChainQueryClient, every one at the same height, each bounded by a timeout.
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
import {
  AbciQueryError,
  ChainQueryClient,
  answerAmount,
  ChainUnavailable,
  QueryNotServed,
  type QueryPath,
  type QueryRequest,
  type QueryResponse,
} from '../src/client';
import type { TokenRegistryEntry } from '../src/mappings/generated/proto-json';
import type { AccrualAnswer } from '../src/store';

/** Holders pages: the most rows the chain returns per page. */
const HOLDERS_PAGE = 1000;

export class ChainAtHeight {
  private readonly client: ChainQueryClient;

  constructor(
    rpcUrl: string,
    readonly height: number,
    timeoutMs: number,
  ) {
    this.client = new ChainQueryClient(rpcUrl, { height, timeoutMs });
  }

  /** abci queries asked so far */
  get queries(): number {
    return this.client.queries;
  }

  /** The decoded answer, or null when the module answers with its own error (not found). */
  async query<P extends QueryPath>(path: P, request: QueryRequest<P>): Promise<QueryResponse<P> | null> {
    try {
      return await this.client.query(path, request);
    } catch (e) {
      if (!(e instanceof AbciQueryError) || e instanceof QueryNotServed) throw e;
      if (e.fromModule) return null;
      throw new ChainUnavailable(`${path} at height ${this.height}: ${e.codespace}/${e.code} ${e.log}`.trim());
    }
  }

  /** Kind ids of an asset, or null when the chain has no such asset. */
  async kindIds(assetId: string): Promise<number[] | null> {
    const r = await this.query('/svc.asset.v1.Query/Asset', { asset_id: assetId });
    return r ? r.kinds.map((k) => k.kind_id) : null;
  }

  async kindSupply(assetId: string, kindId: number): Promise<{ supply: string; holder_count: number } | null> {
    const r = await this.query('/svc.asset.v1.Query/KindSupply', { asset_id: assetId, kind_id: kindId });
    return r ? { supply: r.supply || '0', holder_count: Number(r.holder_count) } : null;
  }

  /** Σ units over every holder of the kind (Query/Holders, paged). */
  async holdersSum(assetId: string, kindId: number): Promise<bigint | null> {
    let sum = 0n;
    for (let offset = 0; ; offset += HOLDERS_PAGE) {
      const page = await this.query('/svc.rights.v1.Query/Holders', {
        asset_id: assetId,
        kind_id: kindId,
        offset: String(offset),
        limit: HOLDERS_PAGE,
      });
      if (!page) return null;
      for (const h of page.holders) sum += answerAmount(h.units);
      if (page.holders.length === 0 || offset + page.holders.length >= Number(page.total)) return sum;
    }
  }

  async accrual(assetId: string, kindId: number, denom: string): Promise<AccrualAnswer | null> {
    const r = await this.query('/svc.payout.v1.Query/Accrual', { asset_id: assetId, kind_id: kindId, denom });
    if (!r) return null;
    const a = r.accrual;
    return {
      denom,
      index: a?.index || '0',
      carry_scaled: a?.carry_scaled || '0',
      module_held: a?.module_held || '0',
      total_distributed: a?.total_distributed || '0',
      total_paid: a?.total_paid || '0',
      distributions_count: Number(a?.distributions_count ?? 0),
    };
  }

  /** The asset's precompile registry (chain 0.9.0 on); QueryNotServed on an older chain. */
  async tokenRegistry(assetId: string): Promise<TokenRegistryEntry[] | null> {
    const r = await this.query('/svc.asset.v1.Query/TokenRegistry', { asset_id: assetId });
    return r ? r.entries : null;
  }

  /** What the chain holds for a route (escrow, synthetic supply or escrow units). */
  async escrowBalance(routeId: string): Promise<bigint | null> {
    const r = await this.query('/svc.bridge.v1.Query/EscrowBalance', { route_id: routeId });
    return r ? answerAmount(r.amount) : null;
  }

  /** The route's direction and the chain's own counters. */
  async route(routeId: string): Promise<{ direction: string; outbound: bigint; inbound: bigint } | null> {
    const r = await this.query('/svc.bridge.v1.Query/Route', { route_id: routeId });
    if (!r) return null;
    return {
      direction: r.route?.direction ?? '',
      outbound: answerAmount(r.counters?.outbound ?? ''),
      inbound: answerAmount(r.counters?.inbound ?? ''),
    };
  }
}
