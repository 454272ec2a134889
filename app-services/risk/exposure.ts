/**
 * What the lender and the desk stand to lose, in one unit (base units of the stable denom),
 * and the room their caps leave (docs/app-services.md, "Risk"). Pure: the figures come from
 * an ExposureSnapshot (risk/repository.ts) read under the risk lock, so every check of a new
 * loan, bid, accepted offer or RFQ sees what every earlier one took, whichever process and
 * path took it.
 *
 * Two tiers (RiskTiers): the assets the operator lists have the main caps; every other asset
 * draws on the smaller community caps, and neither tier's exposure or losses take room from
 * the other.
 * - The lender's exposure is the principal of its opening and active loans; for a liquidated
 *   loan whose seized units are still being sold back into the pool, the principal less what
 *   they have fetched so far; and the losses its liquidations took once that sale ended
 *   (principal less what the units fetched), charged until an operator resets them: a loss an
 *   attacker causes never frees the room it used, and one block's dump cannot make one.
 * - The desk's is what it paid, net, for what it holds of an asset (since DESK_FROM_HEIGHT:
 *   stable paid for purchases less stable received for sales, less the losses an operator
 *   wrote off), never less than 0, plus the purchases it has promised and not yet seen in
 *   that figure (offers it is accepting, sell RFQs outstanding). At cost, not at mid: what
 *   it can lose is what it paid, and a price that rises does not fill the room.
 * - An issuer's is both services' exposure to its assets of one tier.
 * - An asset that cost a loss gets nothing new for a cool-off (cooloffUntil): a listed asset's
 *   in proportion to the loss, a community asset's whole.
 */
import { cooloffRefusal, refusal, type Reason, type Refusal } from './reasons';

/** Amounts by asset, issuer and (the lender's) borrower, and their total. */
export class Ledger {
  readonly byAsset = new Map<string, bigint>();
  readonly byIssuer = new Map<string, bigint>();
  readonly byBorrower = new Map<string, bigint>();
  /** the issuer of each asset with an amount */
  readonly issuerOf = new Map<string, string>();
  total = 0n;

  add(amount: bigint, at: { assetId: string; issuer: string | null; borrower?: string | null }): void {
    bump(this.byAsset, at.assetId, amount);
    if (at.issuer) {
      bump(this.byIssuer, at.issuer, amount);
      this.issuerOf.set(at.assetId, at.issuer);
    }
    if (at.borrower) bump(this.byBorrower, at.borrower, amount);
    this.total += amount;
  }

  asset(id: string): bigint {
    return this.byAsset.get(id) ?? 0n;
  }

  issuer(address: string): bigint {
    return this.byIssuer.get(address) ?? 0n;
  }

  borrower(address: string): bigint {
    return this.byBorrower.get(address) ?? 0n;
  }

  /** The total over the assets of one tier (and, given, of one issuer). */
  inTier(tiers: RiskTiers, listed: boolean, issuer?: string): bigint {
    let sum = 0n;
    for (const [assetId, amount] of this.byAsset)
      if (tiers.isListed(assetId) === listed && (issuer === undefined || this.issuerOf.get(assetId) === issuer))
        sum += amount;
    return sum;
  }
}

function bump(map: Map<string, bigint>, key: string, amount: bigint): void {
  map.set(key, (map.get(key) ?? 0n) + amount);
}

/**
 * Which assets the operator lists (RISK_LISTED_ASSETS): they have the main room. Every other
 * asset, whoever launched it, is a community asset: it draws on the smaller community
 * budgets, and its losses and cool-offs never touch a listed asset (Aave v3's isolation mode
 * is the model: new collateral under its own debt ceiling).
 */
export class RiskTiers {
  private readonly listed: ReadonlySet<string>;

  constructor(listed: Iterable<string>) {
    this.listed = new Set(listed);
  }

  isListed(assetId: string): boolean {
    return this.listed.has(assetId);
  }

  tierOf(assetId: string): 'listed' | 'community' {
    return this.isListed(assetId) ? 'listed' : 'community';
  }
}

export interface ExposureSnapshot {
  lender: Ledger;
  desk: Ledger;
  /** losses charged and not reset, both services' */
  losses: Ledger;
  /** when the latest loss not reset was charged (ms), per asset */
  lastLossMs: Map<string, number>;
  /** that latest loss's amount, per asset */
  lastLoss: Map<string, bigint>;
}

export function emptySnapshot(): ExposureSnapshot {
  return {
    lender: new Ledger(),
    desk: new Ledger(),
    losses: new Ledger(),
    lastLossMs: new Map(),
    lastLoss: new Map(),
  };
}

/** A cap and what it leaves. */
export interface Limit {
  reason: Reason;
  /** the setting that sets it, for the message */
  setting: string;
  /** what the cap allows, and what is out against it (charged losses included): room = cap − used */
  cap: bigint;
  used: bigint;
  room: bigint;
}

/** A limit from its cap and what is out against it. */
const limit = (reason: Reason, setting: string, cap: bigint, used: bigint): Limit => ({
  reason,
  setting,
  cap,
  used,
  room: cap - used,
});

const SCOPE: Partial<Record<Reason, string>> = {
  position_limit: "the desk's position in this asset",
  pool_share_cap: 'the exposure to this asset',
  asset_cap: "the lender's exposure to this asset",
  borrower_cap: "the lender's exposure to this borrower",
  issuer_cap: "the lender's and the desk's exposure to this issuer's assets",
  total_cap: 'the exposure to every asset of its tier',
};

/** A limit with its figures, for people: "the desk's position in this asset 1900 of its cap 2000 (DESK_MAX_POSITION), 100 left". */
export function limitFigures(l: Limit): string {
  const room = l.room > 0n ? l.room : 0n;
  return `${SCOPE[l.reason] ?? 'the exposure'} ${l.used} of its cap ${l.cap} (${l.setting}), ${room} left`;
}

const BPS = 10_000n;
const nonNegative = (n: bigint) => (n > 0n ? n : 0n);

/** `wanted` reduced to fit every limit (0 when one is full), and the limit that bound it (the first of equals). */
export function fitToLimits(wanted: bigint, limits: readonly Limit[]): { amount: bigint; limitedBy: Limit | null } {
  let amount = wanted;
  let limitedBy: Limit | null = null;
  for (const limit of limits) {
    const room = nonNegative(limit.room);
    if (room < amount) [amount, limitedBy] = [room, limit];
  }
  return { amount, limitedBy };
}

/** The caps and cool-offs both services share (RISK_*). */
export interface SharedRiskSettings {
  /** RISK_LISTED_ASSETS: the listed tier */
  tiers: RiskTiers;
  /** RISK_MAX_PER_ISSUER: the lender's and the desk's exposure to one issuer's listed assets together */
  maxPerIssuer: bigint;
  /** RISK_COMMUNITY_MAX_PER_ISSUER: the same for one issuer's community assets */
  communityMaxPerIssuer: bigint;
  /** RISK_LOSS_COOLOFF_S (in ms here): nothing new for a community asset this long after a loss it cost */
  lossCooloffMs: number;
  /** RISK_LISTED_LOSS_COOLOFF_S (in ms here): the same for a listed asset, after a loss of RISK_LISTED_COOLOFF_FULL_LOSS or more … */
  listedLossCooloffMs: number;
  /** RISK_LISTED_COOLOFF_FULL_LOSS: … and in proportion below it */
  listedCooloffFullLoss: bigint;
  /** RISK_ISSUER_LOSS_THRESHOLD: an issuer whose community assets cost this much (not reset) cools off whole */
  issuerLossThreshold: bigint;
}

export interface LenderLimitSettings {
  maxPoolShareBps: number;
  maxPerBorrower: bigint;
  maxPerAsset: bigint;
  maxTotal: bigint;
  communityMaxPerAsset: bigint;
  communityMaxTotal: bigint;
}

export interface DeskLimitSettings {
  /** DESK_MAX_POSITION */
  maxPosition: bigint;
  /** DESK_MAX_POOL_SHARE_BPS */
  maxPoolShareBps: number;
  /** DESK_MAX_TOTAL */
  maxTotal: bigint;
  /** DESK_COMMUNITY_MAX_POSITION */
  communityMaxPosition: bigint;
  /** DESK_COMMUNITY_MAX_TOTAL */
  communityMaxTotal: bigint;
}

/** Who a new exposure is to: the asset, its issuer and (for a loan) the borrower, and the pool depth it is bounded by. */
export interface Subject {
  assetId: string;
  issuer: string;
  borrower?: string;
  /** the pool's stable reserve, at the lower of now and at the lendable price (market/units.ts quoteReserveAt; both services take it so) */
  poolQuoteReserve: bigint;
}

/** The room under a share of the pool's stable reserve, less what is out on the asset. */
const poolShareLimit = (setting: string, bps: number, subject: Subject, onAsset: bigint): Limit =>
  limit('pool_share_cap', setting, (subject.poolQuoteReserve * BigInt(bps)) / BPS, onAsset);

/** The room both services together have left on the issuer's assets of the subject's tier. */
function issuerLimit(s: ExposureSnapshot, subject: Subject, shared: SharedRiskSettings): Limit {
  const listed = shared.tiers.isListed(subject.assetId);
  const taken =
    s.lender.inTier(shared.tiers, listed, subject.issuer) + s.desk.inTier(shared.tiers, listed, subject.issuer);
  return listed
    ? limit('issuer_cap', 'RISK_MAX_PER_ISSUER', shared.maxPerIssuer, taken)
    : limit('issuer_cap', 'RISK_COMMUNITY_MAX_PER_ISSUER', shared.communityMaxPerIssuer, taken);
}

/** The rooms a new loan has (its principal is fitted to them). */
export function lenderLimits(
  s: ExposureSnapshot,
  subject: Subject,
  lender: LenderLimitSettings,
  shared: SharedRiskSettings,
): Limit[] {
  const onAsset = s.lender.asset(subject.assetId);
  const listed = shared.tiers.isListed(subject.assetId);
  const tierTotal = s.lender.inTier(shared.tiers, listed);
  return [
    poolShareLimit('LENDER_MAX_POOL_SHARE_BPS', lender.maxPoolShareBps, subject, onAsset),
    listed
      ? limit('asset_cap', 'LENDER_MAX_PER_ASSET', lender.maxPerAsset, onAsset)
      : limit('asset_cap', 'LENDER_COMMUNITY_MAX_PER_ASSET', lender.communityMaxPerAsset, onAsset),
    limit('borrower_cap', 'LENDER_MAX_PER_BORROWER', lender.maxPerBorrower, s.lender.borrower(subject.borrower ?? '')),
    issuerLimit(s, subject, shared),
    listed
      ? limit('total_cap', 'LENDER_MAX_TOTAL', lender.maxTotal, tierTotal)
      : limit('total_cap', 'LENDER_COMMUNITY_MAX_TOTAL', lender.communityMaxTotal, tierTotal),
  ];
}

/**
 * The most the desk may hold of one asset whatever else it holds: the lesser of the position
 * cap of the asset's tier and its pool-share cap (what the RFQ reservation cap and the
 * inventory target are shares of).
 */
export function deskAssetRoom(
  subject: Pick<Subject, 'assetId' | 'poolQuoteReserve'>,
  desk: DeskLimitSettings,
  shared: Pick<SharedRiskSettings, 'tiers'>,
): bigint {
  const position = shared.tiers.isListed(subject.assetId) ? desk.maxPosition : desk.communityMaxPosition;
  const poolShare = (subject.poolQuoteReserve * BigInt(desk.maxPoolShareBps)) / BPS;
  return position < poolShare ? position : poolShare;
}

/** The rooms a new purchase by the desk has. */
export function deskBuyLimits(
  s: ExposureSnapshot,
  subject: Subject,
  desk: DeskLimitSettings,
  shared: SharedRiskSettings,
): Limit[] {
  const onAsset = s.desk.asset(subject.assetId);
  const listed = shared.tiers.isListed(subject.assetId);
  const tierTotal = s.desk.inTier(shared.tiers, listed);
  return [
    listed
      ? limit('position_limit', 'DESK_MAX_POSITION', desk.maxPosition, onAsset)
      : limit('position_limit', 'DESK_COMMUNITY_MAX_POSITION', desk.communityMaxPosition, onAsset),
    poolShareLimit('DESK_MAX_POOL_SHARE_BPS', desk.maxPoolShareBps, subject, onAsset),
    issuerLimit(s, subject, shared),
    listed
      ? limit('total_cap', 'DESK_MAX_TOTAL', desk.maxTotal, tierTotal)
      : limit('total_cap', 'DESK_COMMUNITY_MAX_TOTAL', desk.communityMaxTotal, tierTotal),
  ];
}

/**
 * Why the desk may not buy `value` (at mid) more of the subject's asset now: a cool-off after
 * a loss, or a cap it would pass; null when it fits. One rule for both ways the desk buys (an
 * offer it accepts, a sell RFQ it records), read under the risk lock.
 */
export function purchaseRefusal(
  s: ExposureSnapshot,
  subject: Subject,
  value: bigint,
  desk: DeskLimitSettings,
  shared: SharedRiskSettings,
  nowMs: number,
): Refusal | null {
  const until = cooloffUntil(s, subject.assetId, subject.issuer, nowMs, shared);
  if (until !== null) return cooloffRefusal(until);
  const fitted = fitToLimits(value, deskBuyLimits(s, subject, desk, shared));
  if (!fitted.limitedBy) return null;
  return refusal(
    fitted.limitedBy.reason,
    `the purchase is ${value} at mid and the desk may buy ${fitted.amount} more: ${limitFigures(fitted.limitedBy)}`,
  );
}

/**
 * When the cool-off after a loss ends for new exposure to the asset (ms); null when none runs
 * at `nowMs`. Scoped to the cause: the asset that cost the loss; a listed asset for
 * RISK_LISTED_LOSS_COOLOFF_S in proportion to its latest loss against
 * RISK_LISTED_COOLOFF_FULL_LOSS (a stranger's small loss on the main equity stops its
 * borrowers and sellers for seconds, not minutes), a community one for RISK_LOSS_COOLOFF_S
 * whole; an issuer's other community assets only once its community assets together cost
 * RISK_ISSUER_LOSS_THRESHOLD; a listed asset never for its issuer's losses elsewhere.
 */
export function cooloffUntil(
  s: ExposureSnapshot,
  assetId: string,
  issuer: string,
  nowMs: number,
  shared: SharedRiskSettings,
): number | null {
  const listed = shared.tiers.isListed(assetId);
  const own = s.lastLossMs.get(assetId);
  let until = -Infinity;
  if (own !== undefined)
    until = own + (listed ? listedCooloffMs(s.lastLoss.get(assetId) ?? 0n, shared) : shared.lossCooloffMs);
  if (!listed && s.losses.inTier(shared.tiers, false, issuer) >= shared.issuerLossThreshold)
    for (const [lost, lossIssuer] of s.losses.issuerOf)
      if (lossIssuer === issuer && !shared.tiers.isListed(lost))
        until = Math.max(until, (s.lastLossMs.get(lost) ?? -Infinity) + shared.lossCooloffMs);
  return until > nowMs ? until : null;
}

/** A listed asset's cool-off after a loss: the whole RISK_LISTED_LOSS_COOLOFF_S from RISK_LISTED_COOLOFF_FULL_LOSS up, in proportion below. */
export function listedCooloffMs(
  loss: bigint,
  shared: Pick<SharedRiskSettings, 'listedLossCooloffMs' | 'listedCooloffFullLoss'>,
): number {
  if (loss >= shared.listedCooloffFullLoss) return shared.listedLossCooloffMs;
  return Number((BigInt(shared.listedLossCooloffMs) * (loss > 0n ? loss : 0n)) / shared.listedCooloffFullLoss);
}
