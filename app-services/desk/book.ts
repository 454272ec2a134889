/**
 * The desk's quote book: for every asset with a pool against the stable denom and a
 * launchpad document, either its quotes (the whole share and each kind, around the pool's
 * time-weighted price: desk/pricing.ts) or why it is not quoted (`not_quoted`): a look-alike
 * of an asset launched earlier with the same document, or a symbol or name that reads the same, no pool, a price window
 * still filling, or an asset the market does not find fit to quote.
 *
 * A side is withheld (null, with the reason beside it) when
 *   - spot and the twap diverge beyond the market's bound in the direction that would pay a
 *     counterparty: spot above withholds the ask, spot below the bid (`price_diverged`);
 *   - bid only: the asset or its issuer is in a cool-off after a loss (`loss_cooloff`); one
 *     more whole unit would take the desk's exposure beyond one of its caps (`position_limit`,
 *     `pool_share_cap`, `issuer_cap`, `total_cap`: risk/exposure.ts); its stable balance does
 *     not cover one whole unit at the bid (`inventory`);
 *   - ask only: it does not hold one whole unit it may move, of every kind for a whole share
 *     (`inventory`).
 * The desk's exposure to an asset is what it paid for it, net, since DESK_FROM_HEIGHT, less
 * what an operator wrote off (risk/exposure.ts): every unit it holds counts, locked ones too
 * (an issuer may lock any holder's units: a unit the desk cannot move is still a risk it
 * holds). A book publishes that figure as of the indexed height it read it at
 * (risk/repository.ts), so the lender and every check that follows see it.
 *
 * A book is built for one (chain height, indexed height) pair: it is rebuilt as soon as
 * either moves, and at least every `cacheMs`.
 */
import type { Pool } from 'pg';
import type { Tables } from '../../src/store';
import type { ChainClient } from '../chain/chain-client';
import type { ChainQueries } from '../chain/queries';
import type { Market } from '../market/eligibility';
import { poolShareReserve, type MarketPrice } from '../market/price-oracle';
import type { AssetUnits } from '../market/units';
import {
  cooloffUntil,
  deskBuyLimits,
  fitToLimits,
  limitFigures,
  type DeskLimitSettings,
  type ExposureSnapshot,
  type SharedRiskSettings,
} from '../risk/exposure';
import { cooloffRefusal, refusal, type Reason, type Refusal } from '../risk/reasons';
import type { RiskRepository } from '../risk/repository';
import { indexedHeight } from '../store/indexer-reads';
import { instrumentsOf, type Instrument } from './pricing';
import type { DeskAsset, DeskRepository } from './repository';
import type { Resource } from './reservations';

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
  bidWithheld: Reason | null;
  askWithheld: Reason | null;
  /** why a side is withheld, with the figures (null when it is quoted) */
  bidWithheldDetail: string | null;
  askWithheldDetail: string | null;
}

export interface NotQuoted extends Refusal {
  asset_id: string;
  name: string;
  symbol: string;
}

/** What the desk knows of one quoted asset in a book. */
export interface AssetState {
  asset: DeskAsset;
  units: AssetUnits;
  price: MarketPrice;
  /** every unit the desk holds per kind, locked ones too */
  held: Map<number, bigint>;
  /** the units it may move now per kind */
  movable: Map<number, bigint>;
  /** the pool's stable reserve at the lower of now and at the lendable price (as the lender takes it): what the pool-share cap is a share of */
  poolQuoteReserve: bigint;
}

/** What the desk paid, net, for an asset (desk/repository.ts paid), and what it was charged and wrote off of it. */
export interface AssetCost {
  issuer: string;
  paid: bigint;
  /** every loss charged on it, reset ones too */
  charged: bigint;
  writtenOff: bigint;
}

/** The desk's exposure to an asset at cost: what it paid, less what was written off, never below 0. */
export const exposureAtCost = (c: AssetCost) => (c.paid - c.writtenOff > 0n ? c.paid - c.writtenOff : 0n);

export interface Book {
  /** the chain height its balances and prices were read at */
  height: number;
  /** what the desk paid per asset, as of the indexed height the book read */
  costs: Map<string, AssetCost>;
  quotes: Quote[];
  notQuoted: NotQuoted[];
  /** the desk's stable balance */
  cash: bigint;
  /** the quoted assets, by id */
  assets: Map<string, AssetState>;
}

export interface BookOptions {
  repository: DeskRepository;
  risk: RiskRepository;
  queries: ChainQueries;
  chain: ChainClient;
  market: Market;
  /** the indexer's store, for its latest height */
  pool: Pool;
  svc: Tables;
  desk: string;
  denom: string;
  cacheMs: number;
  limits: DeskLimitSettings;
  shared: SharedRiskSettings;
  /** DESK_FROM_HEIGHT */
  fromHeight: number;
}

/** The units the desk may move of one kind of an asset in the book (0 when it is not quoted). */
export function movableOf(book: Book, assetId: string, kindId: number): bigint {
  return book.assets.get(assetId)?.movable.get(kindId) ?? 0n;
}

export class DeskBook {
  private cached: { key: string; at: number; book: Promise<Book> } | undefined;

  constructor(private readonly o: BookOptions) {}

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

  /**
   * The first of `kinds` of which `holder` may move fewer than `units` on the chain now, with
   * what it may move; null when it can deliver them all. A sell RFQ's requester, as the RFQ is
   * recorded (desk/routes.ts) and again before the desk proposes (desk/worker.ts).
   */
  async shortfall(
    holder: string,
    assetId: string,
    kinds: readonly number[],
    units: bigint,
  ): Promise<{ kindId: number; movable: bigint } | null> {
    for (const kindId of kinds) {
      const movable = await this.o.queries.transferable(assetId, kindId, holder);
      if (movable < units) return { kindId, movable };
    }
    return null;
  }

  private async heightKey(): Promise<string> {
    const [chain, indexed] = await Promise.all([this.o.chain.height(), indexedHeight(this.o.pool, this.o.svc)]);
    return `${chain}/${indexed}`;
  }

  private async build(): Promise<Book> {
    const [candidates, cash, height] = await Promise.all([
      this.o.repository.deskAssets(this.o.denom),
      this.o.chain.balance(this.o.desk, this.o.denom),
      this.o.chain.height(),
    ]);
    const assets = new Map<string, AssetState>();
    const notQuoted: NotQuoted[] = [];
    for (const asset of candidates) {
      const state = await this.stateOf(asset);
      if ('reason' in state)
        notQuoted.push({ asset_id: asset.asset_id, name: asset.name, symbol: asset.symbol, ...state });
      else assets.set(asset.asset_id, state);
    }
    const costs = await this.costs();
    const snapshot = await this.o.risk.snapshot();
    const quotes = [...assets.values()].flatMap((a) =>
      quotesOf(
        a,
        { cash, snapshot, nowMs: Date.now() },
        { ...this.o.limits, ...this.o.shared, maxDivergenceBps: this.o.market.settings.maxDivergenceBps },
      ),
    );
    return { height, costs, quotes, notQuoted, cash, assets };
  }

  /** What the desk paid per asset, published for the caps as of the indexed height read first (the figure is at least that recent). */
  private async costs(): Promise<Map<string, AssetCost>> {
    const indexed = await indexedHeight(this.o.pool, this.o.svc);
    const [paid, losses] = await Promise.all([
      this.o.repository.paid(this.o.desk, this.o.denom, this.o.fromHeight),
      this.o.risk.deskLosses(),
    ]);
    const costs = new Map<string, AssetCost>();
    for (const [assetId, p] of paid)
      costs.set(assetId, {
        ...p,
        charged: losses.charged.get(assetId) ?? 0n,
        writtenOff: losses.writtenOff.get(assetId) ?? 0n,
      });
    await this.o.risk.publishDeskHoldings(
      [...costs].map(([assetId, c]) => ({ assetId, issuer: c.issuer, value: exposureAtCost(c) })),
      indexed,
    );
    return costs;
  }

  /** The asset as quoted now, or why it is not. */
  private async stateOf(asset: DeskAsset): Promise<AssetState | Refusal> {
    if (asset.look_alike_of)
      return refusal(
        'look_alike',
        `asset ${asset.look_alike_of} was launched first with the same launchpad document, or a symbol or name that reads the same; only it is quoted`,
      );
    const assessment = await this.o.market.assess(asset.asset_id, 'quote');
    if (!assessment.ok) return assessment.refusal;
    const { price, units } = assessment;
    const held = new Map<number, bigint>();
    const movable = new Map<number, bigint>();
    for (const kindId of units.kindIds) {
      const p = await this.o.queries.position(asset.asset_id, kindId, this.o.desk);
      held.set(kindId, p.units);
      movable.set(kindId, p.units - p.locked);
    }
    return {
      asset,
      units,
      price,
      held,
      movable,
      poolQuoteReserve: poolShareReserve(price),
    };
  }
}

/** The desk's holding of the asset valued at mid: every unit, locked ones too. */
export function holdingAtMid(a: Pick<AssetState, 'units' | 'held' | 'price'>): bigint {
  return a.units.holdingValue(a.held, a.price.twap);
}

/** Which sides the pool's divergence leaves quoted. */
export function sidesOpen(price: Pick<MarketPrice, 'spot' | 'twap' | 'divergenceBps'>, maxDivergenceBps: number) {
  if (price.divergenceBps <= maxDivergenceBps) return { bid: true, ask: true };
  return { bid: price.spot > price.twap, ask: price.spot < price.twap };
}

export interface QuoteContext {
  cash: bigint;
  /** the risk account, with this book's holdings published */
  snapshot: ExposureSnapshot;
  nowMs: number;
}

/** How far spot is from the twap, for a withheld side. */
const divergence = (p: Pick<MarketPrice, 'spot' | 'twap' | 'divergenceBps'>, maxBps: number) =>
  `spot ${p.spot} is ${p.divergenceBps} bps ${p.spot < p.twap ? 'below' : 'above'} the twap ${p.twap} per whole share, beyond PRICE_MAX_DIVERGENCE_BPS ${maxBps}`;

/** Why the desk does not bid for one whole unit of the instrument now (with the figures), or null. */
function bidWithheld(
  a: AssetState,
  i: Instrument,
  ctx: QuoteContext,
  limits: DeskLimitSettings & SharedRiskSettings & { maxDivergenceBps: number },
): Refusal | null {
  // a cool-off lasts: said before what only waits for the pool to settle
  const until = cooloffUntil(ctx.snapshot, a.asset.asset_id, a.asset.issuer, ctx.nowMs, limits);
  if (until !== null) return cooloffRefusal(until);
  if (!sidesOpen(a.price, limits.maxDivergenceBps).bid)
    return refusal('price_diverged', divergence(a.price, limits.maxDivergenceBps));
  const subject = { assetId: a.asset.asset_id, issuer: a.asset.issuer, poolQuoteReserve: a.poolQuoteReserve };
  const fitted = fitToLimits(i.mid, deskBuyLimits(ctx.snapshot, subject, limits, limits));
  if (fitted.limitedBy)
    return refusal(
      fitted.limitedBy.reason,
      `one whole unit at mid (${i.mid}) does not fit: ${limitFigures(fitted.limitedBy)}`,
    );
  if (i.bid <= 0n || ctx.cash < i.bid)
    return refusal(
      'inventory',
      `the desk holds ${ctx.cash} base units of the stable denom; one whole unit at the bid costs ${i.bid}`,
    );
  return null;
}

function askWithheld(a: AssetState, i: Instrument, maxDivergenceBps: number): Refusal | null {
  if (!sidesOpen(a.price, maxDivergenceBps).ask)
    return refusal('price_diverged', divergence(a.price, maxDivergenceBps));
  const whole = 10n ** BigInt(i.decimals);
  const short = i.kinds.find((k) => (a.movable.get(k) ?? 0n) < whole);
  if (short !== undefined)
    return refusal(
      'inventory',
      `the desk may move ${a.movable.get(short) ?? 0n} base units of kind ${short}; one whole unit is ${whole}`,
    );
  return null;
}

/** The quotes of one asset, each side withheld as the header says. */
export function quotesOf(
  a: AssetState,
  ctx: QuoteContext,
  limits: DeskLimitSettings & SharedRiskSettings & { maxDivergenceBps: number },
): Quote[] {
  return instrumentsOf(a.units, a.price).map((i) => {
    const bidWhy = bidWithheld(a, i, ctx, limits);
    const askWhy = askWithheld(a, i, limits.maxDivergenceBps);
    return {
      asset_id: a.asset.asset_id,
      name: a.asset.name,
      symbol: a.asset.symbol,
      kind: i.kind,
      decimals: i.decimals,
      kinds: i.kinds,
      mid: i.mid,
      bid: bidWhy ? null : i.bid,
      ask: askWhy ? null : i.ask,
      bidWithheld: bidWhy?.reason ?? null,
      askWithheld: askWhy?.reason ?? null,
      bidWithheldDetail: bidWhy?.detail ?? null,
      askWithheldDetail: askWhy?.detail ?? null,
    };
  });
}
