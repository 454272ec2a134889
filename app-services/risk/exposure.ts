/**
 * What the lender and the desk stand to lose, in one unit (base units of the stable denom),
 * and the room their caps leave (docs/app-services.md, "Risk"). Pure: the figures come from
 * an ExposureSnapshot (risk/repository.ts) read under the risk lock, so every check of a new
 * loan, bid, accepted offer or RFQ sees what every earlier one took, whichever process and
 * path took it.
 *
 * - The lender's exposure is the principal of its opening and active loans, plus the losses
 *   its liquidations took (principal less what the seized units could be sold for), charged
 *   until an operator resets them: a loss an attacker causes never frees the room it used.
 * - The desk's is what it holds of an asset (every unit, locked ones too) valued at mid, plus
 *   the purchases it has promised and not yet seen in its holding (offers it is accepting,
 *   sell RFQs outstanding), plus its charged losses.
 * - An issuer's is both services' exposure to all of its assets.
 * - An asset or issuer that cost a loss gets nothing new for a cool-off.
 */
import { cooloffRefusal, refusal, type Reason, type Refusal } from './reasons';

/** Amounts by asset, issuer and (the lender's) borrower, and their total. */
export class Ledger {
  readonly byAsset = new Map<string, bigint>();
  readonly byIssuer = new Map<string, bigint>();
  readonly byBorrower = new Map<string, bigint>();
  total = 0n;

  add(amount: bigint, at: { assetId: string; issuer: string | null; borrower?: string | null }): void {
    bump(this.byAsset, at.assetId, amount);
    if (at.issuer) bump(this.byIssuer, at.issuer, amount);
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
}

function bump(map: Map<string, bigint>, key: string, amount: bigint): void {
  map.set(key, (map.get(key) ?? 0n) + amount);
}

export interface ExposureSnapshot {
  lender: Ledger;
  desk: Ledger;
  /** when the latest loss not reset was charged (ms), per asset and per issuer */
  lastLossMs: { asset: Map<string, number>; issuer: Map<string, number> };
}

export function emptySnapshot(): ExposureSnapshot {
  return { lender: new Ledger(), desk: new Ledger(), lastLossMs: { asset: new Map(), issuer: new Map() } };
}

/** A cap and what it leaves. */
export interface Limit {
  reason: Reason;
  /** the setting that sets it, for the message */
  setting: string;
  room: bigint;
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

/** The caps both services share (RISK_*). */
export interface SharedRiskSettings {
  /** RISK_MAX_PER_ISSUER: the lender's and the desk's exposure to one issuer's assets together */
  maxPerIssuer: bigint;
  /** RISK_LOSS_COOLOFF_S (in ms here): nothing new for an asset or issuer this long after a loss it cost */
  lossCooloffMs: number;
}

export interface LenderLimitSettings {
  maxPoolShareBps: number;
  maxPerBorrower: bigint;
  maxPerAsset: bigint;
  maxTotal: bigint;
}

export interface DeskLimitSettings {
  /** DESK_MAX_POSITION */
  maxPosition: bigint;
  /** DESK_MAX_POOL_SHARE_BPS */
  maxPoolShareBps: number;
  /** DESK_MAX_TOTAL */
  maxTotal: bigint;
}

/** Who a new exposure is to: the asset, its issuer and (for a loan) the borrower, and the pool depth it is bounded by. */
export interface Subject {
  assetId: string;
  issuer: string;
  borrower?: string;
  /** the pool's stable reserve, at the lower of now and at the twap (lender/terms.ts quoteReserveAt) */
  poolQuoteReserve: bigint;
}

/** The room under a share of the pool's stable reserve, less what is out on the asset. */
const poolShareLimit = (setting: string, bps: number, subject: Subject, onAsset: bigint): Limit => ({
  reason: 'pool_share_cap',
  setting,
  room: (subject.poolQuoteReserve * BigInt(bps)) / BPS - onAsset,
});

/** The room both services together have left on the issuer's assets. */
const issuerLimit = (s: ExposureSnapshot, subject: Subject, shared: SharedRiskSettings): Limit => ({
  reason: 'issuer_cap',
  setting: 'RISK_MAX_PER_ISSUER',
  room: shared.maxPerIssuer - s.lender.issuer(subject.issuer) - s.desk.issuer(subject.issuer),
});

/** The rooms a new loan has (its principal is fitted to them). */
export function lenderLimits(
  s: ExposureSnapshot,
  subject: Subject,
  lender: LenderLimitSettings,
  shared: SharedRiskSettings,
): Limit[] {
  const onAsset = s.lender.asset(subject.assetId);
  return [
    poolShareLimit('LENDER_MAX_POOL_SHARE_BPS', lender.maxPoolShareBps, subject, onAsset),
    { reason: 'asset_cap', setting: 'LENDER_MAX_PER_ASSET', room: lender.maxPerAsset - onAsset },
    {
      reason: 'borrower_cap',
      setting: 'LENDER_MAX_PER_BORROWER',
      room: lender.maxPerBorrower - s.lender.borrower(subject.borrower ?? ''),
    },
    issuerLimit(s, subject, shared),
    { reason: 'total_cap', setting: 'LENDER_MAX_TOTAL', room: lender.maxTotal - s.lender.total },
  ];
}

/** The rooms a new purchase by the desk has. */
export function deskBuyLimits(
  s: ExposureSnapshot,
  subject: Subject,
  desk: DeskLimitSettings,
  shared: SharedRiskSettings,
): Limit[] {
  const onAsset = s.desk.asset(subject.assetId);
  return [
    { reason: 'position_limit', setting: 'DESK_MAX_POSITION', room: desk.maxPosition - onAsset },
    poolShareLimit('DESK_MAX_POOL_SHARE_BPS', desk.maxPoolShareBps, subject, onAsset),
    issuerLimit(s, subject, shared),
    { reason: 'total_cap', setting: 'DESK_MAX_TOTAL', room: desk.maxTotal - s.desk.total },
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
    `the desk can buy ${fitted.amount} more of this asset at mid, the trade is ${value} (${fitted.limitedBy.setting})`,
  );
}

/** When the cool-off after the latest loss of the asset or its issuer ends (ms); null when none runs at `nowMs`. */
export function cooloffUntil(
  s: ExposureSnapshot,
  assetId: string,
  issuer: string,
  nowMs: number,
  shared: SharedRiskSettings,
): number | null {
  const last = Math.max(s.lastLossMs.asset.get(assetId) ?? -Infinity, s.lastLossMs.issuer.get(issuer) ?? -Infinity);
  const until = last + shared.lossCooloffMs;
  return until > nowMs ? until : null;
}
