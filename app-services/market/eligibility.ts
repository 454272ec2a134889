/**
 * Which assets the lender takes as collateral and the desk quotes (docs/app-services.md,
 * "Market"): one with a robust price (PriceOracle) whose pool is old enough and deep enough,
 * whose every kind is in the bundle the pool trades (so its value is in one unit:
 * market/units.ts), and, as collateral, whose pledges nobody but the lender can release: the
 * asset's releaser role is empty or a trusted account, never the borrower. The allowlist
 * overrides age, depth and releaser (never the need for a price or for one unit).
 *
 * The rules are pure (eligibilityProblem); Market gathers the facts: the price from the
 * chain, the pool's creation height and the asset's issuer, roles and kinds from the indexed
 * store. Roles are set once, by MsgCreateAsset (no message of proto/svc/asset/v1/tx.proto
 * changes them, and Query/Asset does not answer them), so the indexed copy is the chain's.
 */
import { refusal, type Refusal } from '../risk/reasons';
import type { MarketPrice, NoPrice, PriceOracle, PriceReading } from './price-oracle';
import { AssetUnits, type AssetKind } from './units';

export interface MarketSettings {
  /** PRICE_WINDOW_BLOCKS: committed heights the twap is the mean of */
  windowBlocks: number;
  /** PRICE_MAX_DIVERGENCE_BPS: |spot − twap| / twap beyond which nothing is opened (lender) or quoted on that side (desk) */
  maxDivergenceBps: number;
  /** MARKET_MIN_POOL_AGE_BLOCKS: the pool was created at least this many blocks before the price's height */
  minPoolAgeBlocks: number;
  /** MARKET_MIN_POOL_RESERVE: base units of the stable denom the pool holds now */
  minPoolReserve: bigint;
  /** MARKET_TRUSTED_RELEASERS: addresses whose releaser role is no risk to the lender */
  trustedReleasers: readonly string[];
  /** MARKET_ALLOWLIST: asset ids eligible whatever their pool's age, depth or releaser */
  allowlist: readonly string[];
}

/** What eligibility needs to know of an asset, as indexed. */
export interface IndexedAsset {
  issuer: string;
  /** roles.releaser, '' when none */
  releaser: string;
  kinds: AssetKind[];
}

/** An asset that may be used so: its robust price, its one unit, its issuer. */
export interface Eligible {
  ok: true;
  price: MarketPrice;
  units: AssetUnits;
  issuer: string;
}

/** What an asset is worth as far as the market can tell: its price reading, one unit and issuer. */
export interface Valuation {
  reading: PriceReading;
  units: AssetUnits;
  issuer: string;
}

/**
 * `lasting` false: the refusal may pass within moments (no price yet, a window filling, or
 * the index has not seen the pool or the asset yet), so a caller may wait rather than refuse
 * for good.
 */
export type Assessment = Eligible | { ok: false; refusal: Refusal; lasting: boolean };

export type AssetUse = 'collateral' | 'quote';

/** The indexed facts eligibility needs. */
export interface MarketReads {
  /** the indexed DexPool row's creation height; null while the index has not seen the pool */
  poolCreatedHeight(poolId: number): Promise<number | null>;
  /** the indexed asset; null while the index has not seen it */
  asset(assetId: string): Promise<IndexedAsset | null>;
}

export interface EligibilityFacts {
  assetId: string;
  price: MarketPrice;
  /** null: the pool is not indexed yet (it counts as new) */
  poolCreatedHeight: number | null;
  /** null: the asset is not indexed yet */
  releaser: string | null;
}

/** Why the asset may not be used so, or null. */
export function eligibilityProblem(
  f: EligibilityFacts,
  use: AssetUse,
  s: MarketSettings,
  borrower?: string,
): string | null {
  if (s.allowlist.includes(f.assetId)) return null;
  const age = f.poolCreatedHeight === null ? null : f.price.height - f.poolCreatedHeight;
  if (age === null || age < s.minPoolAgeBlocks)
    return `its pool is younger than ${s.minPoolAgeBlocks} blocks (MARKET_MIN_POOL_AGE_BLOCKS)`;
  if (f.price.quoteReserve < s.minPoolReserve)
    return `its pool holds ${f.price.quoteReserve} of the stable denom, below ${s.minPoolReserve} (MARKET_MIN_POOL_RESERVE)`;
  if (use === 'collateral') return releaserProblem(f.releaser, s.trustedReleasers, borrower);
  return null;
}

/** Anyone but the lender able to release a pledge makes the asset no collateral. */
export function releaserProblem(releaser: string | null, trusted: readonly string[], borrower?: string): string | null {
  if (releaser === null) return 'the asset is not indexed yet';
  if (releaser === '') return null;
  if (borrower !== undefined && releaser === borrower) return 'the borrower is the releaser of the asset';
  if (!trusted.includes(releaser)) return 'the asset has a releaser who is not trusted (MARKET_TRUSTED_RELEASERS)';
  return null;
}

/** spot and twap further apart than the bound: no price to act on now. */
export function diverges(price: MarketPrice, s: Pick<MarketSettings, 'maxDivergenceBps'>): boolean {
  return price.divergenceBps > s.maxDivergenceBps;
}

/** Why there is no robust price, as a refusal. */
export function noPriceRefusal(missing: NoPrice, windowBlocks: number): Refusal {
  if (missing.why === 'no_pool') return refusal('no_pool', 'no pool of the asset against the stable denom');
  return refusal(
    'price_window_filling',
    `its price window is filling: ${missing.filled} of ${windowBlocks} blocks (PRICE_WINDOW_BLOCKS) hold a price of its pool`,
  );
}

export class Market {
  constructor(
    private readonly oracle: PriceOracle,
    private readonly reads: MarketReads,
    readonly settings: MarketSettings,
  ) {}

  /** The robust price (null: no pool, or the window not filled). */
  price(assetId: string): Promise<MarketPrice | null> {
    return this.oracle.price(assetId);
  }

  /**
   * The price reading (a robust price, or why there is none), the asset's one unit and its
   * issuer, without the eligibility rules: to value what is already lent against or held.
   * Null while the asset is not indexed, or when its kinds are not all in the pool's bundle.
   */
  async valuation(assetId: string): Promise<Valuation | null> {
    const [reading, asset] = await Promise.all([this.oracle.read(assetId), this.reads.asset(assetId)]);
    const units = asset && AssetUnits.of(assetId, asset.kinds);
    if (!asset || typeof units === 'string' || !units) return null;
    return { reading, units, issuer: asset.issuer };
  }

  /** 'collateral' also applies the releaser rule (never the borrower; empty or in the trusted list) */
  async assess(assetId: string, use: AssetUse, borrower?: string): Promise<Assessment> {
    const reading = await this.oracle.read(assetId);
    if (!reading.price)
      return { ok: false, refusal: noPriceRefusal(reading.missing, this.settings.windowBlocks), lasting: false };
    const { price } = reading;
    const [poolCreatedHeight, asset] = await Promise.all([
      this.reads.poolCreatedHeight(price.poolId),
      this.reads.asset(assetId),
    ]);
    if (!asset)
      return { ok: false, refusal: refusal('asset_not_eligible', 'the asset is not indexed yet'), lasting: false };
    const units = AssetUnits.of(assetId, asset.kinds);
    if (typeof units === 'string') return { ok: false, refusal: refusal('asset_not_eligible', units), lasting: true };
    const releaser = use === 'collateral' ? asset.releaser : '';
    const problem = eligibilityProblem({ assetId, price, poolCreatedHeight, releaser }, use, this.settings, borrower);
    if (!problem) return { ok: true, price, units, issuer: asset.issuer };
    return { ok: false, refusal: refusal('asset_not_eligible', problem), lasting: poolCreatedHeight !== null };
  }
}
