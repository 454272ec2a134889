/**
 * The desk's quote book: for every asset with a pool against the stable denom and a
 * launchpad document that the market assesses fit to quote (pool old and deep enough, or
 * allowlisted), the whole share (kind -1) and each kind, with bid and ask around the pool's
 * time-weighted price (one trade cannot move it) and the desk's inventory on the chain.
 *
 * A side is withheld (null) when
 *   - the desk could not fill it for one whole unit (bid: its stable balance; ask: its
 *     transferable units of the kind, or of every kind for a whole share);
 *   - spot and the time-weighted price diverge beyond the market's bound in the direction
 *     that hurts the desk: spot above it withholds the ask (a buyer would take the desk's
 *     units below the pool), spot below it withholds the bid;
 *   - bid only: one more whole unit would take the desk's holding of the asset, valued at
 *     mid, beyond its position limit.
 * A book is built for one (chain height, indexed height) pair: it is rebuilt as soon as
 * either moves, and at least every `cacheMs`.
 */
import type { Pool } from 'pg';
import type { Tables } from '../../src/store';
import type { ChainClient } from '../chain/chain-client';
import type { ChainQueries } from '../chain/queries';
import { indexedHeight } from '../store/indexer-reads';
import type { DeskRepository, QuotedAsset } from './repository';
import type { Resource } from './reservations';
import { amountFor, askOf, bidOf, kindMids, WHOLE_SHARE } from './pricing';

export interface Quote {
  asset_id: string;
  name: string;
  symbol: string;
  /** -1: a whole share (one unit of every kind) */
  kind: number;
  decimals: number;
  /** kinds the instrument moves */
  kinds: number[];
  mid: bigint;
  bid: bigint | null;
  ask: bigint | null;
}

export interface Book {
  quotes: Quote[];
  /** the desk's stable balance */
  cash: bigint;
  /** the desk's transferable units per `<asset>/<kind>` */
  units: Map<string, bigint>;
  /** the desk's holding of each quoted asset, valued at mid (stable base units) */
  positions: Map<string, bigint>;
}

/** The market's price of an asset (app-services/market MarketPrice), as far as the desk reads it. */
export interface DeskPrice {
  /** the pool's price per whole share now */
  spot: bigint;
  /** its time-weighted mean over the market's window */
  twap: bigint;
  /** |spot − twap| × 10000 / twap */
  divergenceBps: number;
}

/** What the book needs of the market (app-services/market Market): eligibility and a robust price. */
export interface QuoteMarket {
  readonly settings: { maxDivergenceBps: number };
  assess(assetId: string, use: 'quote'): Promise<{ ok: true; price: DeskPrice } | { ok: false; reason: string }>;
}

export interface BookLimits {
  /** DESK_MAX_POSITION: stable base units a purchase may bring the desk's holding of one asset to */
  maxPosition: bigint;
  /** the market's PRICE_MAX_DIVERGENCE_BPS */
  maxDivergenceBps: number;
}

export const unitsKey = (assetId: string, kindId: number) => `${assetId}/${kindId}`;

export class DeskBook {
  private cached: { key: string; at: number; book: Promise<Book> } | undefined;

  constructor(
    private readonly o: {
      repository: DeskRepository;
      queries: ChainQueries;
      chain: ChainClient;
      market: QuoteMarket;
      /** the indexer's store, for its latest height */
      pool: Pool;
      svc: Tables;
      desk: string;
      denom: string;
      cacheMs: number;
      maxPosition: bigint;
    },
  ) {}

  /** The book of the latest chain and indexed heights, at most `cacheMs` old. */
  async current(): Promise<Book> {
    const key = await this.heightKey();
    if (!this.cached || this.cached.key !== key || Date.now() - this.cached.at > this.o.cacheMs) {
      const book = this.build();
      const entry = { key, at: Date.now(), book };
      this.cached = entry;
      book.catch(() => {
        if (this.cached === entry) this.cached = undefined;
      });
    }
    return this.cached.book;
  }

  /** A book built now, for the caller alone (it may take from it what it accepts). */
  fresh(): Promise<Book> {
    return this.build();
  }

  /** The desk's free (transferable) balance of an inventory on the chain now. */
  free(resource: Resource): Promise<bigint> {
    return resource.side === 'sell'
      ? this.o.chain.balance(this.o.desk, this.o.denom)
      : this.o.queries.transferable(resource.assetId, resource.kindId, this.o.desk);
  }

  private async heightKey(): Promise<string> {
    const [chain, indexed] = await Promise.all([this.o.chain.height(), indexedHeight(this.o.pool, this.o.svc)]);
    return `${chain}/${indexed}`;
  }

  private async build(): Promise<Book> {
    const assets = await this.o.repository.quotedAssets(this.o.denom);
    const cash = await this.o.chain.balance(this.o.desk, this.o.denom);
    const units = new Map<string, bigint>();
    const positions = new Map<string, bigint>();
    const quotes: Quote[] = [];
    const limits = { maxPosition: this.o.maxPosition, maxDivergenceBps: this.o.market.settings.maxDivergenceBps };
    for (const asset of assets) {
      if (!asset.kinds?.length) continue;
      const assessment = await this.o.market.assess(asset.asset_id, 'quote');
      if (!assessment.ok || assessment.price.twap <= 0n) continue;
      for (const k of asset.kinds)
        units.set(
          unitsKey(asset.asset_id, k.kind_id),
          await this.o.queries.transferable(asset.asset_id, k.kind_id, this.o.desk),
        );
      positions.set(asset.asset_id, positionValue(asset, assessment.price.twap, units));
      quotes.push(...quotesOf(asset, assessment.price, { cash, units, positions }, limits));
    }
    return { quotes, cash, units, positions };
  }
}

/** The desk's holding of `asset`, each kind valued at its mid from `wholeMid`. */
export function positionValue(asset: QuotedAsset, wholeMid: bigint, units: Map<string, bigint>): bigint {
  const mids = kindMids(wholeMid, asset.kinds);
  return asset.kinds.reduce(
    (sum, k) =>
      sum +
      amountFor(mids.get(k.kind_id) ?? 0n, units.get(unitsKey(asset.asset_id, k.kind_id)) ?? 0n, k.decimals, true),
    0n,
  );
}

/** Which sides the pool's divergence leaves quoted. */
export function sidesOpen(price: DeskPrice, maxDivergenceBps: number): { bid: boolean; ask: boolean } {
  if (price.divergenceBps <= maxDivergenceBps) return { bid: true, ask: true };
  return { bid: price.spot > price.twap, ask: price.spot < price.twap };
}

/** The instruments of one asset (whole share, then each kind with a class weight) around the twap, sides withheld as the header says. */
export function quotesOf(
  asset: QuotedAsset,
  price: DeskPrice,
  inventory: Pick<Book, 'cash' | 'units' | 'positions'>,
  limits: BookLimits,
): Quote[] {
  const wholeMid = price.twap;
  const mids = kindMids(wholeMid, asset.kinds);
  const open = sidesOpen(price, limits.maxDivergenceBps);
  const position = inventory.positions.get(asset.asset_id) ?? 0n;
  const instruments = [
    { kind: WHOLE_SHARE, kinds: asset.kinds.map((k) => k.kind_id), mid: wholeMid, decimals: asset.kinds[0].decimals },
    ...asset.kinds
      .filter((k) => (mids.get(k.kind_id) ?? 0n) > 0n)
      .map((k) => ({ kind: k.kind_id, kinds: [k.kind_id], mid: mids.get(k.kind_id)!, decimals: k.decimals })),
  ];
  return instruments.map((i) => {
    const bid = bidOf(i.mid);
    const ask = askOf(i.mid);
    const holdsWhole = i.kinds.every(
      (k) => (inventory.units.get(unitsKey(asset.asset_id, k)) ?? 0n) >= 10n ** BigInt(i.decimals),
    );
    const roomForWhole = position + i.mid <= limits.maxPosition;
    return {
      asset_id: asset.asset_id,
      name: asset.name,
      symbol: asset.symbol,
      kind: i.kind,
      decimals: i.decimals,
      kinds: i.kinds,
      mid: i.mid,
      bid: open.bid && roomForWhole && bid > 0n && inventory.cash >= bid ? bid : null,
      ask: open.ask && holdsWhole ? ask : null,
    };
  });
}
