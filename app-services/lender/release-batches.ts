/**
 * Which refused pledges the lender releases next, and in which tx (docs/app-services.md,
 * "Lender", "Releases and dust"). Pure: the worker reads the queue (refused pledges not yet
 * released nor in an open release tx), values each pledge and hands it here.
 *
 *  - A pledge worth at least LENDER_RELEASE_MIN_VALUE (its units as as many whole shares at
 *    the lower of spot and twap) is released in a batch of at most `batchMax` messages, the
 *    sets of the highest value per message first: a set larger than a batch is split over
 *    several txs, and an honest set of real value never waits behind a stranger's junk.
 *  - Dust (worth less, or unpriceable) is released only when nothing of value waits, and of
 *    each tx that created dust the lender releases one pledge, ever: the rest of that tx's
 *    dust is left to its holder. So every dust release message is matched by a whole tx its
 *    creator paid for, and the lender's gas on dust never exceeds what the dust's creators
 *    spent on it (the ratio, with the chain's gas schedule, in the docs).
 */

export interface Releasable {
  id: bigint;
  /** the refused set it belongs to (its lowest pledge id) */
  set: bigint;
  /** the tx that created it; null while the index has not seen it */
  txHash: string | null;
  /** stable base units; null: it cannot be priced */
  value: bigint | null;
}

export interface ReleasePlan {
  /** the next batch of pledges worth at least the minimum, highest value per message first */
  valued: bigint[];
  /** the next low-priority batch of dust, one pledge per creating tx, oldest first */
  dust: bigint[];
  /** dust of a creating tx whose one dust release is taken: never released by the lender */
  left: bigint[];
}

export interface ReleaseRule {
  /** LENDER_RELEASE_MIN_VALUE */
  minValue: bigint;
  /** messages in one release tx */
  batchMax: number;
  /** creating txs one of whose dust pledges is released already or in an open release tx */
  dustTxsTaken: ReadonlySet<string>;
}

const byId = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

export const isDust = (p: Releasable, minValue: bigint) => p.value === null || p.value < minValue;

export function planReleases(queue: readonly Releasable[], rule: ReleaseRule): ReleasePlan {
  const valued = queue.filter((p) => !isDust(p, rule.minValue));
  const dust = queue.filter((p) => isDust(p, rule.minValue));
  return { valued: valuedBatch(valued, rule.batchMax), ...dustBatch(dust, rule) };
}

/** Sets by value per message (highest first, then the oldest set), each in pledge order, cut at `batchMax`. */
function valuedBatch(pledges: readonly Releasable[], batchMax: number): bigint[] {
  const sets = new Map<bigint, Releasable[]>();
  for (const p of pledges) sets.set(p.set, [...(sets.get(p.set) ?? []), p]);
  const perMessage = (set: Releasable[]) => set.reduce((sum, p) => sum + p.value!, 0n) / BigInt(set.length);
  const ordered = [...sets.entries()]
    .map(([set, members]) => ({ set, members, value: perMessage(members) }))
    .sort((a, b) => (a.value > b.value ? -1 : a.value < b.value ? 1 : byId(a.set, b.set)));
  return ordered.flatMap((s) => s.members.map((p) => p.id).sort(byId)).slice(0, batchMax);
}

/** One pledge (the lowest id) of each creating tx not yet taken, oldest first; the rest of those txs' dust left. */
function dustBatch(pledges: readonly Releasable[], rule: ReleaseRule): Pick<ReleasePlan, 'dust' | 'left'> {
  const byTx = new Map<string, Releasable[]>();
  for (const p of pledges) if (p.txHash !== null) byTx.set(p.txHash, [...(byTx.get(p.txHash) ?? []), p]);
  const chosen: bigint[] = [];
  const left: bigint[] = [];
  for (const [tx, members] of byTx) {
    const ids = members.map((p) => p.id).sort(byId);
    if (rule.dustTxsTaken.has(tx)) left.push(...ids);
    else {
      chosen.push(ids[0]);
      left.push(...ids.slice(1));
    }
  }
  return { dust: chosen.sort(byId).slice(0, rule.batchMax), left: left.sort(byId) };
}

/**
 * The most messages one tx holds within APP_TX_GAS when each costs APP_TX_GAS_PER_MSG above
 * APP_TX_GAS_BASE (the services' own estimate, docs/app-services.md); undefined without a
 * per-message cost.
 */
export function gasMessagesMax(s: { txGas: bigint; txGasBase: bigint; txGasPerMsg: bigint }): number | undefined {
  if (s.txGasPerMsg <= 0n) return undefined;
  const n = (s.txGas - s.txGasBase) / s.txGasPerMsg;
  return Number(n < 1n ? 1n : n);
}
