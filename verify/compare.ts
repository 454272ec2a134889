/**
 * Two deployments' proofs compared over their common heights. Each proof chains every height
 * before it, so one comparison at the highest common height says whether all of them agree;
 * when they do not, the first differing height is found by bisection (a difference at h is a
 * difference at every later height), and there verify names what differs: the block hash (two
 * chains), the entity types whose roots differ, and per type the rows each side wrote (its
 * writes log) and, for a row both wrote differently and both stores still hold as that height
 * wrote it, the fields. A row rewritten since is named with the fields that differ now, marked so.
 */
import { displayValue, fieldCodes, leafPrefix, rowLeaf } from '../src/lib/proof';
import { RowsUnavailable, type ChainBreak, type HeightProof, type ProofSource, type WritesLog } from './sources';
import type { StoredRow } from './values';

export interface FieldDifference {
  field: string;
  /** the field's value on each side as JSON of what the store holds (undefined: unset) */
  a?: string;
  b?: string;
}

export interface RowDifference {
  id: string;
  /** which side still holds the row as the height wrote it */
  asWritten: { a: boolean; b: boolean };
  /** absent from a store now (a later height removed it) */
  missing?: 'a' | 'b' | 'both';
  /** the fields that differ, as written at the height when both hold it so, else as held now */
  fields: FieldDifference[];
}

export interface TypeDifference {
  type: string;
  /** root of the type at the height on each side (undefined: that side wrote no row of it) */
  rootA?: string;
  rootB?: string;
  /** ids only one side wrote at the height */
  onlyA: string[];
  onlyB: string[];
  /** ids both wrote, with different leaves */
  differing: string[];
  /** the first `rowLimit` of `differing`, compared field by field */
  rows: RowDifference[];
  /** why rows could not be read, when they could not */
  rowsUnavailable?: string;
}

export interface Diagnosis {
  height: number;
  a: HeightProof;
  b: HeightProof;
  blockHashDiffers: boolean;
  entitiesRootDiffers: boolean;
  previousDiffers: boolean;
  types: TypeDifference[];
}

export type VerifyResult =
  | { outcome: 'agree'; from: number; to: number; probes: number; heads: [number, number] }
  | {
      outcome: 'differ';
      from: number;
      to: number;
      probes: number;
      heads: [number, number];
      firstDiffering: number;
      diagnosis: Diagnosis;
    }
  | { outcome: 'cannot'; reason: string; heads?: [number, number] };

export interface VerifyOptions {
  /** rows compared field by field per entity type (default 10) */
  rowLimit?: number;
  /** progress lines (e.g. stderr) */
  progress?: (line: string) => void;
}

function differingTypes(a: HeightProof, b: HeightProof): string[] {
  return [...new Set([...Object.keys(a.roots), ...Object.keys(b.roots)])]
    .filter((t) => a.roots[t] !== b.roots[t])
    .sort();
}

function fieldDifferences(a: StoredRow | undefined, b: StoredRow | undefined): FieldDifference[] {
  const [ca, cb] = [a ? fieldCodes(a) : new Map<string, string>(), b ? fieldCodes(b) : new Map<string, string>()];
  return [...new Set([...ca.keys(), ...cb.keys()])]
    .sort()
    .filter((f) => ca.get(f) !== cb.get(f))
    .map((field) => ({ field, a: displayValue(a?.[field]), b: displayValue(b?.[field]) }));
}

async function compareRows(
  type: string,
  ids: string[],
  logs: [WritesLog, WritesLog],
  sources: [ProofSource, ProofSource],
): Promise<RowDifference[]> {
  const [rowsA, rowsB] = await Promise.all(sources.map((s) => s.rows(type, ids)));
  return ids.map((id) => {
    const [ra, rb] = [rowsA.get(id), rowsB.get(id)];
    const asWritten = {
      a: ra !== undefined && leafPrefix(rowLeaf(type, ra)) === logs[0][type]?.[id],
      b: rb !== undefined && leafPrefix(rowLeaf(type, rb)) === logs[1][type]?.[id],
    };
    const missing = !ra && !rb ? 'both' : !ra ? 'a' : !rb ? 'b' : undefined;
    return { id, asWritten, ...(missing ? { missing } : {}), fields: fieldDifferences(ra, rb) };
  });
}

async function diagnose(
  height: number,
  a: HeightProof,
  b: HeightProof,
  sources: [ProofSource, ProofSource],
  rowLimit: number,
): Promise<Diagnosis> {
  const diagnosis: Diagnosis = {
    height,
    a,
    b,
    blockHashDiffers: a.blockHash !== b.blockHash,
    entitiesRootDiffers: a.entitiesRoot !== b.entitiesRoot,
    previousDiffers: a.previous !== b.previous,
    types: [],
  };
  const types = differingTypes(a, b);
  if (types.length === 0) return diagnosis;
  let logs: [WritesLog, WritesLog] | undefined;
  let unavailable: string | undefined;
  try {
    const [la, lb] = await Promise.all(sources.map((s) => s.writes(height)));
    if (!la || !lb) unavailable = `no writes log at ${height} on ${!la ? sources[0].label : sources[1].label}`;
    else logs = [la, lb];
  } catch (e) {
    if (!(e instanceof RowsUnavailable)) throw e;
    unavailable = e.message;
  }
  for (const type of types) {
    const diff: TypeDifference = {
      type,
      rootA: a.roots[type],
      rootB: b.roots[type],
      onlyA: [],
      onlyB: [],
      differing: [],
      rows: [],
    };
    diagnosis.types.push(diff);
    if (!logs) {
      diff.rowsUnavailable = unavailable;
      continue;
    }
    const [wa, wb] = [logs[0][type] ?? {}, logs[1][type] ?? {}];
    diff.onlyA = Object.keys(wa).filter((id) => !(id in wb));
    diff.onlyB = Object.keys(wb).filter((id) => !(id in wa));
    diff.differing = Object.keys(wa).filter((id) => id in wb && wa[id] !== wb[id]);
    const compared = [...diff.differing, ...diff.onlyA, ...diff.onlyB].slice(0, rowLimit);
    if (compared.length === 0) continue;
    try {
      diff.rows = await compareRows(type, compared, logs, sources);
    } catch (e) {
      if (!(e instanceof RowsUnavailable)) throw e;
      diff.rowsUnavailable = e.message;
    }
  }
  return diagnosis;
}

function brokenChain(label: string, height: number, from: number, why: ChainBreak['why']): string {
  const what =
    why === 'missing'
      ? `the proof of ${height - 1} was missing when ${height} was proved`
      : `the proof of ${height} does not chain to the proof of ${height - 1}`;
  return (
    `the proofs on ${label} are not one chain from ${from}: ${what}, so equal proofs above it would not ` +
    `cover the heights below it (a BlockProof row removed or changed in that store?); reindex it`
  );
}

/** Compares `a` ("this deployment") with `b` over their common heights. */
export async function verify(a: ProofSource, b: ProofSource, options: VerifyOptions = {}): Promise<VerifyResult> {
  const progress = options.progress ?? (() => undefined);
  const sources: [ProofSource, ProofSource] = [a, b];
  const heads = (await Promise.all(sources.map((s) => s.head()))) as [number, number];
  const to = Math.min(...heads);
  if (to < 1) return { outcome: 'cannot', reason: `nothing indexed in common (heads ${heads.join(' and ')})`, heads };
  const firsts = await Promise.all(sources.map((s) => s.firstProven(to)));
  const none = sources.filter((_, i) => firsts[i] === null).map((s) => s.label);
  if (none.length)
    return {
      outcome: 'cannot',
      reason: `no proof at or below height ${to} on ${none.join(' and ')} (kept with PROOF_OF_INDEXING=false?)`,
      heads,
    };
  if (firsts[0] !== firsts[1])
    return {
      outcome: 'cannot',
      reason:
        `the proofs start at different heights (${firsts[0]} and ${firsts[1]}): each chain starts with an empty ` +
        `previous proof, so they differ at every common height whatever the rows`,
      heads,
    };
  const from = firsts[0]!;
  const breaks = await Promise.all(sources.map((s) => s.firstBreak?.(from, to) ?? Promise.resolve(null)));
  for (const [i, broken] of breaks.entries())
    if (broken)
      return {
        outcome: 'cannot',
        reason: brokenChain(sources[i].label, broken.height, from, broken.why),
        heads,
      };
  let probes = 0;
  const probe = async (h: number): Promise<[HeightProof, HeightProof]> => {
    probes++;
    const [pa, pb] = await Promise.all(sources.map((s) => s.proof(h)));
    if (!pa || !pb)
      throw new Error(`no proof at ${h} on ${!pa ? a.label : b.label}, although it has proofs from ${from} on`);
    // a chain restarted mid-store (an indexer that fell back to '' where h-1's proof was missing)
    for (const [i, p] of [pa, pb].entries())
      if (h > from && p.previous === '') throw new Error(brokenChain(sources[i].label, h, from, 'missing'));
    return [pa, pb];
  };
  progress(`comparing the proofs at ${to}, the last height both have (bisecting from ${from} if they differ)`);
  let at = await probe(to);
  if (at[0].hash === at[1].hash) return { outcome: 'agree', from, to, probes, heads };
  let first = to;
  const atFrom = from === to ? at : await probe(from);
  if (atFrom[0].hash !== atFrom[1].hash) {
    first = from;
    at = atFrom;
  } else {
    let lo = from; // equal at lo, different at first
    while (first - lo > 1) {
      const mid = Math.floor((lo + first) / 2);
      const pm = await probe(mid);
      progress(`  ${mid}: ${pm[0].hash === pm[1].hash ? 'equal' : 'differs'}`);
      if (pm[0].hash === pm[1].hash) lo = mid;
      else [first, at] = [mid, pm];
    }
  }
  const diagnosis = await diagnose(first, at[0], at[1], sources, options.rowLimit ?? 10);
  return { outcome: 'differ', from, to, probes, heads, firstDiffering: first, diagnosis };
}
