/**
 * Which pledges to the lender open a loan (docs/app-services.md, "Lender"). A loan opens
 * when one borrower has pledged to the lender the same units of every kind of one asset:
 * each pledge exercisable, income routed to the lender, no holder release, no expiry, one
 * pledge per tx, all within the pledge window of block time from the first.
 *
 * Pure: the worker reads the pledges (from the indexed store) and the chain's block time,
 * this sorts them into complete sets, refusals and pledges still waiting for their set.
 */

export interface PledgeSeen {
  id: bigint;
  assetId: string;
  kindId: number;
  holder: string;
  units: bigint;
  exercisable: boolean;
  incomeToBeneficiary: boolean;
  holderReleaseAfter: string | null;
  expiry: string | null;
  txHash: string;
  /** block time of the creating tx, ms */
  createdMs: number;
  /** kinds of the asset */
  kindCount: number;
}

export interface PledgeSet {
  borrower: string;
  assetId: string;
  units: bigint;
  /** one per kind, by kind id */
  pledges: PledgeSeen[];
}

export interface Refusal {
  pledge: PledgeSeen;
  reason: string;
}

/** A set still within its window that lacks a kind (what the loans list shows as `pending`). */
export interface OpenSet extends PledgeSet {
  /** the kind ids it still lacks (an asset's kinds are 0 … kindCount − 1) */
  missingKinds: number[];
  /** when its window ends: the first pledge's block time + the window, ms */
  windowEndsMs: number;
}

export interface Sorted {
  complete: PledgeSet[];
  refused: Refusal[];
  /** in a set that may still complete within its window */
  waiting: PledgeSeen[];
  /** those sets, whole */
  open: OpenSet[];
}

/** The kinds of an asset with `kindCount` kinds that `pledges` lack. */
export const missingKinds = (pledges: readonly Pick<PledgeSeen, 'kindId'>[], kindCount: number): number[] =>
  Array.from({ length: kindCount }, (_, k) => k).filter((k) => !pledges.some((p) => p.kindId === k));

/** Why a pledge can never be part of a loan, or null. */
export function flagProblem(p: PledgeSeen): string | null {
  if (!p.exercisable) return 'not exercisable';
  if (!p.incomeToBeneficiary) return 'income not routed to the lender';
  if (p.holderReleaseAfter !== null) return 'the holder may release it';
  if (p.expiry !== null) return 'it expires';
  return null;
}

function groupKey(p: PledgeSeen): string {
  return `${p.holder}|${p.assetId}`;
}

/** Pledges that share a tx with another pledge (one pledge per tx is a rule). */
function sharedTxs(pledges: PledgeSeen[]): Set<string> {
  const seen = new Map<string, number>();
  for (const p of pledges) seen.set(p.txHash, (seen.get(p.txHash) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([hash]) => hash));
}

/**
 * Sorts the unassigned pledges to the lender, in creation order. Per borrower and asset,
 * a set starts at its first pledge and takes the next pledge of each missing kind with the
 * same units, created within the window; a pledge that does not fit an open set starts the
 * next one. A set missing a kind once its window has passed is refused whole.
 */
export function sortPledges(pledges: readonly PledgeSeen[], nowMs: number, windowMs: number): Sorted {
  const out: Sorted = { complete: [], refused: [], waiting: [], open: [] };
  const shared = sharedTxs([...pledges]);
  const groups = new Map<string, PledgeSeen[]>();
  for (const p of [...pledges].sort((a, b) => a.createdMs - b.createdMs || (a.id < b.id ? -1 : 1))) {
    const problem = flagProblem(p) ?? (shared.has(p.txHash) ? 'more than one pledge in its tx' : null);
    if (problem) out.refused.push({ pledge: p, reason: problem });
    else groups.set(groupKey(p), [...(groups.get(groupKey(p)) ?? []), p]);
  }
  for (const group of groups.values()) sortGroup(group, nowMs, windowMs, out);
  return out;
}

function sortGroup(group: PledgeSeen[], nowMs: number, windowMs: number, out: Sorted): void {
  let rest = group;
  while (rest.length) {
    const first = rest[0];
    const byKind = new Map<number, PledgeSeen>([[first.kindId, first]]);
    const left: PledgeSeen[] = [];
    for (const p of rest.slice(1)) {
      const fits =
        p.units === first.units &&
        !byKind.has(p.kindId) &&
        p.createdMs - first.createdMs <= windowMs &&
        byKind.size < first.kindCount;
      if (fits) byKind.set(p.kindId, p);
      else left.push(p);
    }
    const members = [...byKind.values()].sort((a, b) => a.kindId - b.kindId);
    if (byKind.size === first.kindCount)
      out.complete.push({ borrower: first.holder, assetId: first.assetId, units: first.units, pledges: members });
    else if (nowMs - first.createdMs > windowMs)
      for (const p of members)
        out.refused.push({ pledge: p, reason: `the set was not complete within ${windowMs / 1000} s` });
    else {
      out.waiting.push(...members);
      out.open.push({
        borrower: first.holder,
        assetId: first.assetId,
        units: first.units,
        pledges: members,
        missingKinds: missingKinds(members, first.kindCount),
        windowEndsMs: first.createdMs + windowMs,
      });
    }
    rest = left;
  }
}
