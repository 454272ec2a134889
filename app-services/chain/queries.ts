/**
 * The svc queries the services confirm with before they act (proto/svc/<module>/v1/query.proto),
 * at the latest height unless asked otherwise, through src/client's ChainQueryClient. Answers keep
 * the generated proto-JSON shape, with amounts and ids as bigint where the services compute.
 */
import {
  AbciQueryError,
  answerAmount,
  ChainQueryClient,
  type QueryPath,
  type QueryRequest,
  type QueryResponse,
} from '../../src/client';
import type * as proto from '../../src/mappings/generated/proto-json';

export type ChainEncumbrance = Omit<proto.Encumbrance, 'id' | 'units'> & { id: bigint; units: bigint };

export type ChainSettlement = Omit<proto.Settlement, 'id' | 'expiry'> & { id: bigint; expiryMs: number };

export interface PoolPrice {
  poolId: number;
  pricePerWhole: bigint;
}

/** Query/PoolPrice as the chain answered it at `height`. */
export interface PoolPriceAt extends PoolPrice {
  height: number;
  baseReserve: bigint;
  quoteReserve: bigint;
}

export type ClaimableEntry = Omit<proto.ClaimableEntry, 'amount'> & { amount: bigint };

export class ChainQueries {
  private readonly client: ChainQueryClient;

  constructor(rpcUrl: string) {
    this.client = new ChainQueryClient(rpcUrl);
  }

  /** The query's answer, or null when the chain answers it with an error (not found, for these queries). */
  private async found<P extends QueryPath>(path: P, request: QueryRequest<P>): Promise<QueryResponse<P> | null> {
    try {
      return await this.client.query(path, request);
    } catch (e) {
      if (e instanceof AbciQueryError) return null;
      throw e;
    }
  }

  /** null when the chain has no such encumbrance */
  async encumbrance(id: bigint): Promise<ChainEncumbrance | null> {
    const r = await this.found('/svc.encumbrance.v1.Query/Encumbrance', { encumbrance_id: id.toString() });
    if (!r?.encumbrance) return null;
    return { ...r.encumbrance, id: BigInt(r.encumbrance.id), units: answerAmount(r.encumbrance.units) };
  }

  /** null when the chain has no such settlement */
  async settlement(id: bigint): Promise<ChainSettlement | null> {
    const r = await this.found('/svc.settlement.v1.Query/Settlement', { settlement_id: id.toString() });
    if (!r?.settlement) return null;
    const { expiry, ...s } = r.settlement;
    return { ...s, id: BigInt(s.id), expiryMs: Date.parse(expiry ?? '') };
  }

  /** null when the asset has no pool against `denom` (or an empty one) */
  async poolPrice(assetId: string, denom: string): Promise<PoolPrice | null> {
    const r = await this.client.query('/svc.dex.v1.Query/PoolPrice', { asset_id: assetId, quote_denom: denom });
    return r.found ? { poolId: Number(r.pool_id), pricePerWhole: answerAmount(r.price_per_whole) } : null;
  }

  /**
   * The pool price at a committed height (omitted: the latest), with the height answered at;
   * null when the asset had no pool against `denom` (or an empty one) then. Throws
   * AbciQueryError when the chain cannot answer at that height (pruned, or not yet committed),
   * ChainUnavailable when it answers at another height or cannot be asked.
   */
  async poolPriceAt(assetId: string, denom: string, height?: number): Promise<PoolPriceAt | null> {
    const { value: r, height: answeredAt } = await this.client.queryWithHeight(
      '/svc.dex.v1.Query/PoolPrice',
      { asset_id: assetId, quote_denom: denom },
      { height },
    );
    if (!r.found) return null;
    return {
      height: answeredAt,
      poolId: Number(r.pool_id),
      pricePerWhole: answerAmount(r.price_per_whole),
      baseReserve: answerAmount(r.base_reserve),
      quoteReserve: answerAmount(r.quote_reserve),
    };
  }

  /** a holder's units of one kind: every unit it owns (locked ones too), and those locked */
  async position(assetId: string, kindId: number, holder: string): Promise<{ units: bigint; locked: bigint }> {
    const r = await this.client.query('/svc.rights.v1.Query/Position', { asset_id: assetId, kind_id: kindId, holder });
    return { units: answerAmount(r.units), locked: answerAmount(r.locked) };
  }

  /** units a holder may move now (units − locked) of one kind */
  async transferable(assetId: string, kindId: number, holder: string): Promise<bigint> {
    const { units, locked } = await this.position(assetId, kindId, holder);
    return units - locked;
  }

  async claimable(address: string): Promise<ClaimableEntry[]> {
    const r = await this.client.query('/svc.payout.v1.Query/Claimable', { address });
    return r.entries.map((e) => ({ ...e, amount: answerAmount(e.amount) }));
  }
}
