/**
 * The svc queries the services confirm with before they act (proto/svc/<module>/v1/query.proto),
 * over `abci_query` at the latest height, decoded as proto-JSON by src/client.
 */
import { abciQuery, AbciQueryError, queryMethodTypes } from '../../src/client/abci-query';

export interface ChainEncumbrance {
  id: bigint;
  kind: string;
  asset_id: string;
  kind_id: number;
  holder: string;
  units: bigint;
  beneficiary: string;
  income_to_beneficiary: boolean;
  exercisable: boolean;
  holder_release_after: string | null;
  expiry: string | null;
  status: string;
}

export interface ChainLeg {
  direction: string;
  coin?: { denom: string; amount: string };
  right?: Record<string, unknown>;
}

export interface ChainSettlement {
  id: bigint;
  proposer: string;
  counterparty: string;
  legs: ChainLeg[];
  expiryMs: number;
  status: string;
}

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

export interface ClaimableEntry {
  routed_from: string;
  ref: string;
  asset_id: string;
  kind_id: number;
  denom: string;
  amount: bigint;
}

type Json = Record<string, unknown>;

/** proto-JSON leaves a default (empty) field out. */
const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const optionalTime = (v: unknown) => (text(v) === '' ? null : text(v));

export class ChainQueries {
  constructor(private readonly rpcUrl: string) {}

  private async query<T = Json>(path: string, request: Json): Promise<T> {
    return (await abciQuery<T>(this.rpcUrl, path, queryMethodTypes(path).requestType, request)).value;
  }

  /** The answer and the height the chain answered at (height 0 or omitted: the latest). */
  private async queryAt<T = Json>(path: string, request: Json, height?: number): Promise<{ value: T; height: number }> {
    return abciQuery<T>(this.rpcUrl, path, queryMethodTypes(path).requestType, request, height);
  }

  /** The query's answer, or null when the chain answers it with an error (not found, for these queries). */
  private async found<T>(path: string, request: Json): Promise<T | null> {
    try {
      return await this.query<T>(path, request);
    } catch (e) {
      if (e instanceof AbciQueryError) return null;
      throw e;
    }
  }

  /** null when the chain has no such encumbrance */
  async encumbrance(id: bigint): Promise<ChainEncumbrance | null> {
    const r = await this.found<{ encumbrance: Json }>('/svc.encumbrance.v1.Query/Encumbrance', {
      encumbrance_id: id.toString(),
    });
    if (!r) return null;
    const e = r.encumbrance;
    return {
      id: BigInt(text(e.id) || '0'),
      kind: text(e.kind),
      asset_id: text(e.asset_id),
      kind_id: Number(e.kind_id ?? 0),
      holder: text(e.holder),
      units: BigInt(text(e.units) || '0'),
      beneficiary: text(e.beneficiary),
      income_to_beneficiary: e.income_to_beneficiary === true,
      exercisable: e.exercisable === true,
      holder_release_after: optionalTime(e.holder_release_after),
      expiry: optionalTime(e.expiry),
      status: text(e.status),
    };
  }

  /** null when the chain has no such settlement */
  async settlement(id: bigint): Promise<ChainSettlement | null> {
    const r = await this.found<{ settlement: Json }>('/svc.settlement.v1.Query/Settlement', {
      settlement_id: id.toString(),
    });
    if (!r) return null;
    const s = r.settlement;
    return {
      id: BigInt(text(s.id) || '0'),
      proposer: text(s.proposer),
      counterparty: text(s.counterparty),
      legs: (s.legs as ChainLeg[] | undefined) ?? [],
      expiryMs: Date.parse(text(s.expiry)),
      status: text(s.status),
    };
  }

  /** null when the asset has no pool against `denom` (or an empty one) */
  async poolPrice(assetId: string, denom: string): Promise<PoolPrice | null> {
    const r = await this.query<Json>('/svc.dex.v1.Query/PoolPrice', { asset_id: assetId, quote_denom: denom });
    if (r.found !== true) return null;
    return { poolId: Number(r.pool_id ?? 0), pricePerWhole: BigInt(text(r.price_per_whole) || '0') };
  }

  /**
   * The pool price at a committed height (omitted: the latest), with the height answered at;
   * null when the asset had no pool against `denom` (or an empty one) then. Throws
   * AbciQueryError when the chain cannot answer at that height (pruned, or not yet committed).
   */
  async poolPriceAt(assetId: string, denom: string, height?: number): Promise<PoolPriceAt | null> {
    const r = await this.queryAt<Json>(
      '/svc.dex.v1.Query/PoolPrice',
      { asset_id: assetId, quote_denom: denom },
      height,
    );
    if (r.value.found !== true) return null;
    return {
      height: r.height,
      poolId: Number(r.value.pool_id ?? 0),
      pricePerWhole: BigInt(text(r.value.price_per_whole) || '0'),
      baseReserve: BigInt(text(r.value.base_reserve) || '0'),
      quoteReserve: BigInt(text(r.value.quote_reserve) || '0'),
    };
  }

  /** a holder's units of one kind: every unit it owns (locked ones too), and those locked */
  async position(assetId: string, kindId: number, holder: string): Promise<{ units: bigint; locked: bigint }> {
    const r = await this.query<Json>('/svc.rights.v1.Query/Position', { asset_id: assetId, kind_id: kindId, holder });
    return { units: BigInt(text(r.units) || '0'), locked: BigInt(text(r.locked) || '0') };
  }

  /** units a holder may move now (units − locked) of one kind */
  async transferable(assetId: string, kindId: number, holder: string): Promise<bigint> {
    const { units, locked } = await this.position(assetId, kindId, holder);
    return units - locked;
  }

  async claimable(address: string): Promise<ClaimableEntry[]> {
    const r = await this.query<{ entries?: Json[] }>('/svc.payout.v1.Query/Claimable', { address });
    return (r.entries ?? []).map((e) => ({
      routed_from: text(e.routed_from),
      ref: text(e.ref),
      asset_id: text(e.asset_id),
      kind_id: Number(e.kind_id ?? 0),
      denom: text(e.denom),
      amount: BigInt(text(e.amount) || '0'),
    }));
  }
}
