/** The market the lender and the desk share: a robust price and who may be valued by it. */
export { PriceOracle, twapOf, divergenceBps, windowHeights } from './price-oracle';
export type { MarketPrice, PoolPriceSource, PriceOracleOptions } from './price-oracle';
export { Market, eligibilityProblem, releaserProblem, diverges } from './eligibility';
export type { Assessment, AssetUse, EligibilityFacts, MarketReads, MarketSettings } from './eligibility';
