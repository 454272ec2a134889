/**
 * Which assets the lender takes as collateral and the desk quotes (docs/app-services.md,
 * "Market"): one with a robust price (PriceOracle) whose pool is old enough and deep enough,
 * and, as collateral, whose pledges nobody but the lender can release: the asset's releaser
 * role is empty or a trusted account, never the borrower. The allowlist overrides age, depth
 * and releaser (never the need for a price).
 *
 * The rules are pure (eligibilityProblem); Market gathers the facts: the price from the
 * chain, the pool's creation height and the asset's roles from the indexed store. Roles are
 * set once, by MsgCreateAsset (no message of proto/svc/asset/v1/tx.proto changes them, and
 * Query/Asset does not answer them), so the indexed copy is the chain's.
 */
import type { MarketPrice, PriceOracle } from './price-oracle';

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

export type Assessment = { ok: true; price: MarketPrice } | { ok: false; reason: string };

export type AssetUse = 'collateral' | 'quote';

/** The indexed facts eligibility needs. */
export interface MarketReads {
  /** the indexed DexPool row's creation height; null while the index has not seen the pool */
  poolCreatedHeight(poolId: number): Promise<number | null>;
  /** the indexed asset's roles.releaser ('' when none); null while the index has not seen the asset */
  assetReleaser(assetId: string): Promise<string | null>;
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

  /** 'collateral' also applies the releaser rule (never the borrower; empty or in the trusted list) */
  async assess(assetId: string, use: AssetUse, borrower?: string): Promise<Assessment> {
    const price = await this.oracle.price(assetId);
    if (!price)
      return { ok: false, reason: 'no robust price: no pool against the stable denom, or its window is not filled' };
    const [poolCreatedHeight, releaser] = await Promise.all([
      this.reads.poolCreatedHeight(price.poolId),
      use === 'collateral' ? this.reads.assetReleaser(assetId) : Promise.resolve(''),
    ]);
    const problem = eligibilityProblem({ assetId, price, poolCreatedHeight, releaser }, use, this.settings, borrower);
    return problem ? { ok: false, reason: problem } : { ok: true, price };
  }
}
