/**
 * The desk's quote book: for every asset with a pool against the stable denom and a
 * launchpad document, the whole share (kind -1) and each kind, with bid and ask from the
 * chain's pool price now and the desk's inventory on the chain. A side the desk could not
 * fill for one whole unit (bid: its stable balance; ask: its transferable units of the kind,
 * or of every kind for a whole share) is not quoted (null). Rebuilt at most every `cacheMs`.
 */
import type { ChainClient } from '../chain/chain-client';
import type { ChainQueries } from '../chain/queries';
import type { DeskRepository, QuotedAsset } from './repository';
import { askOf, bidOf, kindMids, WHOLE_SHARE } from './pricing';

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
}

export const unitsKey = (assetId: string, kindId: number) => `${assetId}/${kindId}`;

export class DeskBook {
  private cached: { at: number; book: Promise<Book> } | undefined;

  constructor(
    private readonly o: {
      repository: DeskRepository;
      queries: ChainQueries;
      chain: ChainClient;
      desk: string;
      denom: string;
      cacheMs: number;
    },
  ) {}

  /** The book, at most `cacheMs` old. */
  current(): Promise<Book> {
    if (!this.cached || Date.now() - this.cached.at > this.o.cacheMs) {
      const book = this.build();
      this.cached = { at: Date.now(), book };
      book.catch(() => (this.cached = undefined));
    }
    return this.cached.book;
  }

  /** A book built now (before the desk commits to a price or an acceptance). */
  fresh(): Promise<Book> {
    this.cached = undefined;
    return this.current();
  }

  private async build(): Promise<Book> {
    const assets = await this.o.repository.quotedAssets(this.o.denom);
    const cash = await this.o.chain.balance(this.o.desk, this.o.denom);
    const units = new Map<string, bigint>();
    const quotes: Quote[] = [];
    for (const asset of assets) {
      const price = await this.o.queries.poolPrice(asset.asset_id, this.o.denom);
      if (!price || price.pricePerWhole === 0n || !asset.kinds?.length) continue;
      for (const k of asset.kinds)
        units.set(
          unitsKey(asset.asset_id, k.kind_id),
          await this.o.queries.transferable(asset.asset_id, k.kind_id, this.o.desk),
        );
      quotes.push(...quotesOf(asset, price.pricePerWhole, cash, units));
    }
    return { quotes, cash, units };
  }
}

/** The instruments of one asset (whole share, then each kind with a class weight) at `wholeMid`, sides withheld on low inventory. */
export function quotesOf(asset: QuotedAsset, wholeMid: bigint, cash: bigint, units: Map<string, bigint>): Quote[] {
  const mids = kindMids(wholeMid, asset.kinds);
  const instruments = [
    { kind: WHOLE_SHARE, kinds: asset.kinds.map((k) => k.kind_id), mid: wholeMid, decimals: asset.kinds[0].decimals },
    ...asset.kinds
      .filter((k) => (mids.get(k.kind_id) ?? 0n) > 0n)
      .map((k) => ({ kind: k.kind_id, kinds: [k.kind_id], mid: mids.get(k.kind_id)!, decimals: k.decimals })),
  ];
  return instruments.map((i) => {
    const whole = 10n ** BigInt(i.decimals);
    const bid = bidOf(i.mid);
    const ask = askOf(i.mid);
    const holdsWhole = i.kinds.every((k) => (units.get(unitsKey(asset.asset_id, k)) ?? 0n) >= whole);
    return {
      asset_id: asset.asset_id,
      name: asset.name,
      symbol: asset.symbol,
      kind: i.kind,
      decimals: i.decimals,
      kinds: i.kinds,
      mid: i.mid,
      bid: bid > 0n && cash >= bid ? bid : null,
      ask: holdsWhole ? ask : null,
    };
  });
}
