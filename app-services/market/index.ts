/** The market the lender and the desk share: a robust price, who may be valued by it, and in what unit. */
export { PriceOracle, twapOf, lowerMedian, lendablePrice, divergenceBps, windowHeights } from './price-oracle';
export type {
  MarketPrice,
  NoPrice,
  PoolPriceSource,
  PriceOracleOptions,
  PriceReading,
  SampleStore,
} from './price-oracle';
export { Market, eligibilityProblem, releaserProblem, diverges, noPriceRefusal } from './eligibility';
export type {
  Assessment,
  AssetUse,
  Eligible,
  EligibilityFacts,
  IndexedAsset,
  MarketReads,
  MarketSettings,
  Valuation,
} from './eligibility';
export { AssetUnits, CLASS_WEIGHTS, poolPayout, type AssetKind } from './units';
