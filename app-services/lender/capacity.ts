/**
 * What the lender would lend now against each asset with a pool (GET /api/lender/terms
 * `capacity`): `max_principal` fitted to the caps the lender shares with the desk, or 0 with
 * the reason the asset is not collateral now. Before a borrower's own cap and the value of
 * what he pledges: those are his. Cached for `cacheMs`: the figures move with each block.
 */
import type { Market } from '../market/eligibility';
import { diverges } from '../market/eligibility';
import { poolShareReserve } from '../market/price-oracle';
import {
  cooloffUntil,
  fitToLimits,
  lenderLimits,
  type ExposureSnapshot,
  type LenderLimitSettings,
  type SharedRiskSettings,
} from '../risk/exposure';
import { cooloffRefusal, refusal, type Refusal } from '../risk/reasons';
import type { RiskRepository } from '../risk/repository';
import type { LenderRepository } from './repository';

export interface Capacity {
  assetId: string;
  symbol: string | null;
  lendable: bigint;
  /** why `lendable` is below the largest principal; null when it is not */
  limitedBy: Refusal | null;
}

export interface CapacityOptions {
  repository: LenderRepository;
  market: Market;
  risk: RiskRepository;
  caps: LenderLimitSettings;
  shared: SharedRiskSettings;
  maxPrincipal: bigint;
  cacheMs: number;
}

export class LenderCapacity {
  private cached: { at: number; list: Promise<Capacity[]> } | undefined;

  constructor(private readonly o: CapacityOptions) {}

  list(): Promise<Capacity[]> {
    if (!this.cached || Date.now() - this.cached.at > this.o.cacheMs) {
      const entry = { at: Date.now(), list: this.build() };
      this.cached = entry;
      entry.list.catch(() => {
        if (this.cached === entry) this.cached = undefined;
      });
    }
    return this.cached.list;
  }

  private async build(): Promise<Capacity[]> {
    const [assets, snapshot] = await Promise.all([this.o.repository.pooledAssets(), this.o.risk.snapshot()]);
    const out: Capacity[] = [];
    for (const a of assets) {
      const { lendable, limitedBy } = await this.capacityOf(a.asset_id, snapshot);
      out.push({ assetId: a.asset_id, symbol: a.symbol, lendable, limitedBy });
    }
    return out;
  }

  private async capacityOf(assetId: string, snapshot: ExposureSnapshot): Promise<Omit<Capacity, 'assetId' | 'symbol'>> {
    const none = (why: Refusal) => ({ lendable: 0n, limitedBy: why });
    const assessment = await this.o.market.assess(assetId, 'collateral');
    if (!assessment.ok) return none(assessment.refusal);
    const { price, issuer } = assessment;
    if (diverges(price, this.o.market.settings))
      return none(
        refusal('price_diverged', `spot and twap are ${price.divergenceBps} bps apart (PRICE_MAX_DIVERGENCE_BPS)`),
      );
    const until = cooloffUntil(snapshot, assetId, issuer, Date.now(), this.o.shared);
    if (until !== null) return none(cooloffRefusal(until));
    const subject = {
      assetId,
      issuer,
      poolQuoteReserve: poolShareReserve(price),
    };
    const fitted = fitToLimits(this.o.maxPrincipal, lenderLimits(snapshot, subject, this.o.caps, this.o.shared));
    return {
      lendable: fitted.amount,
      limitedBy: fitted.limitedBy
        ? refusal(fitted.limitedBy.reason, `${fitted.limitedBy.setting} leaves ${fitted.amount} to lend against it`)
        : null,
    };
  }
}
