/**
 * verify's comparison (verify/compare.ts) and report on in-memory deployments whose proofs are
 * made by the mappings' own functions (src/lib/proof.ts) from rows per height: agreement from one
 * probe, the first differing height by bisection, and at that height the types, rows and fields,
 * told apart from rows rewritten since.
 */
import { blockProofHash, proveWrites, type RowWrite } from '../../../src/lib/proof';
import { verify } from '../../../verify/compare';
import { exitCodeOf, renderReport } from '../../../verify/report';
import type { HeightProof, ProofSource, WritesLog } from '../../../verify/sources';
import { RowsUnavailable } from '../../../verify/sources';

type Rows = Record<string, Record<string, unknown>>; // `${type}/${id}` -> fields

/** A deployment that indexed `writes(h)` at each height 1..head (its store: every row's last write). */
class MemoryDeployment implements ProofSource {
  readonly proofs = new Map<number, HeightProof & { log: WritesLog }>();
  readonly store: Rows = {};
  probes = 0;

  constructor(
    readonly label: string,
    readonly headHeight: number,
    writes: (h: number) => RowWrite[],
    readonly first = 1,
    readonly rowsReadable = true,
  ) {
    let previous = '';
    for (let h = first; h <= headHeight; h++) {
      const rows = writes(h);
      const w = proveWrites(rows);
      const parts = { height: h, blockHash: `B${h}`, entitiesRoot: w.entitiesRoot, previous };
      const hash = blockProofHash(parts);
      this.proofs.set(h, { ...parts, hash, roots: w.roots, log: JSON.parse(w.writesLog) as WritesLog });
      for (const r of rows) this.store[`${r.type}/${r.id}`] = { ...r.fields };
      previous = hash;
    }
  }

  async head() {
    return this.headHeight;
  }
  async firstProven(upTo: number) {
    return this.first <= upTo ? this.first : null;
  }
  async proof(h: number) {
    this.probes++;
    const p = this.proofs.get(h);
    return p ? { ...p } : null;
  }
  async writes(h: number) {
    if (!this.rowsReadable) throw new RowsUnavailable('no GraphQL here');
    return this.proofs.get(h)?.log ?? null;
  }
  async rows(type: string, ids: readonly string[]) {
    const out = new Map<string, Record<string, unknown>>();
    for (const id of ids) if (this.store[`${type}/${id}`]) out.set(id, this.store[`${type}/${id}`]);
    return out;
  }
  async close() {}
}

/** Per height: the Block row, one Tx row, and the account "acc" rewritten every height. */
const history =
  (tweak: (h: number, rows: RowWrite[]) => void = () => undefined) =>
  (h: number): RowWrite[] => {
    const rows: RowWrite[] = [
      { type: 'Block', id: String(h), fields: { id: String(h), height: h, time: new Date(h * 1000) } },
      { type: 'Tx', id: `T${h}`, fields: { id: `T${h}`, height: h, memo: 'm', gasUsed: BigInt(h * 10) } },
      { type: 'Account', id: 'acc', fields: { id: 'acc', lastHeight: h } },
    ];
    tweak(h, rows);
    return rows;
  };

/** Runs verify of an honest deployment against one whose heights `tweak` changes; the result must differ. */
async function differing(head: number, tweak: (h: number, rows: RowWrite[]) => void, readable = true) {
  const r = await verify(
    new MemoryDeployment('A', head, history()),
    new MemoryDeployment('B', head, history(tweak), 1, readable),
  );
  if (r.outcome !== 'differ') throw new Error(`expected a difference, got ${r.outcome}`);
  return r;
}

describe('verify', () => {
  it('agrees from one probe at the highest common height', async () => {
    const a = new MemoryDeployment('A', 1000, history());
    const b = new MemoryDeployment('B', 1200, history());
    const r = await verify(a, b);
    expect(r).toEqual({ outcome: 'agree', from: 1, to: 1000, probes: 1, heads: [1000, 1200] });
    expect(exitCodeOf(r)).toBe(0);
    expect(renderReport(r, ['A', 'B']).at(-1)).toMatch(/^agree: the proofs at 1000 are equal/);
  });

  it('finds the first differing height by bisection and names the type, the row and the field as written', async () => {
    const r = await differing(1000, (h, rows) => {
      if (h === 613) rows[1].fields = { ...rows[1].fields, memo: 'clock 12:00:01' };
    });
    expect(r.firstDiffering).toBe(613);
    expect(r.probes).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(1000)));
    expect(r.diagnosis.types.map((t) => t.type)).toEqual(['Tx']);
    expect(r.diagnosis.types[0]).toMatchObject({
      differing: ['T613'],
      onlyA: [],
      onlyB: [],
      rows: [
        { id: 'T613', asWritten: { a: true, b: true }, fields: [{ field: 'memo', a: '"m"', b: '"clock 12:00:01"' }] },
      ],
    });
    const report = renderReport(r, ['A', 'B']).join('\n');
    expect(report).toContain('DIFFER: the first height whose proofs differ is 613');
    expect(report).toContain('entity types whose root differs at 613: Tx');
    expect(report).toContain(
      'T613: as 613 wrote it in both stores, fields that differ:\n      memo:\n        A "m"\n        B "clock 12:00:01"',
    );
    expect(exitCodeOf(r)).toBe(1);
  });

  it('says when a differing row was rewritten since, and shows how it differs now', async () => {
    const r = await differing(50, (h, rows) => {
      if (h >= 20) rows[2].fields = { id: 'acc', lastHeight: h, note: 'extra' };
    });
    expect(r.firstDiffering).toBe(20);
    const [acc] = r.diagnosis.types;
    expect(acc.type).toBe('Account');
    expect(acc.rows).toEqual([
      { id: 'acc', asWritten: { a: false, b: false }, fields: [{ field: 'note', a: undefined, b: '"extra"' }] },
    ]);
    expect(renderReport(r, ['A', 'B']).join('\n')).toContain(
      'acc: rewritten after 20 in A and B; fields that differ now:',
    );
  });

  it('names rows only one side wrote, and a block hash that differs (two chains)', async () => {
    const r = await differing(10, (h, rows) => {
      if (h === 7) rows.push({ type: 'Drift', id: 'd7', fields: { id: 'd7', field: 'units' } });
    });
    expect(r.diagnosis.types).toMatchObject([{ type: 'Drift', onlyB: ['d7'], rootA: undefined }]);
    expect(renderReport(r, ['A', 'B']).join('\n')).toContain('written only by B: d7');

    const a = new MemoryDeployment('A', 10, history());
    const other = new MemoryDeployment('C', 10, history());
    other.proofs.get(1)!.blockHash = 'ELSEWHERE';
    other.proofs.get(1)!.hash = 'x';
    for (let h = 2; h <= 10; h++) other.proofs.get(h)!.hash = `x${h}`;
    const chains = await verify(a, other);
    if (chains.outcome !== 'differ') throw new Error(chains.outcome);
    expect(chains.firstDiffering).toBe(1);
    expect(chains.diagnosis.blockHashDiffers).toBe(true);
    expect(renderReport(chains, ['A', 'C']).join('\n')).toContain('the two indexed different chains');
  });

  it('still names the height and the types when the other side cannot give rows', async () => {
    const r = await differing(
      40,
      (h, rows) => {
        if (h === 33) rows[0].fields = { ...rows[0].fields, time: new Date(0) };
      },
      false,
    );
    expect(r.firstDiffering).toBe(33);
    expect(r.diagnosis.types).toMatchObject([{ type: 'Block', rows: [], rowsUnavailable: 'no GraphQL here' }]);
    expect(renderReport(r, ['A', 'B']).join('\n')).toContain('rows not compared: no GraphQL here');
  });

  it('does not compare what it cannot: nothing indexed, no proofs, chains that start at different heights', async () => {
    const a = new MemoryDeployment('A', 30, history());
    expect(await verify(a, new MemoryDeployment('B', 0, history()))).toMatchObject({ outcome: 'cannot' });
    const none = new MemoryDeployment('B', 30, history(), 31);
    expect(await verify(a, none)).toMatchObject({
      outcome: 'cannot',
      reason: expect.stringContaining('no proof at or below height 30 on B'),
    });
    const late = await verify(a, new MemoryDeployment('B', 30, history(), 10));
    expect(late).toMatchObject({
      outcome: 'cannot',
      reason: expect.stringContaining('start at different heights (1 and 10)'),
    });
    expect(exitCodeOf(late)).toBe(2);
  });
});

describe('a chain of proofs broken mid-store', () => {
  /** B as an indexer that fell back to previous '' where the proof of `at - 1` could not be loaded. */
  function restartedAt(d: MemoryDeployment, at: number): MemoryDeployment {
    let previous = '';
    for (let h = at; h <= d.headHeight; h++) {
      const p = d.proofs.get(h)!;
      const parts = { height: h, blockHash: p.blockHash, entitiesRoot: p.entitiesRoot, previous };
      const hash = blockProofHash(parts);
      d.proofs.set(h, { ...p, previous, hash });
      previous = hash;
    }
    return d;
  }

  it('is reported, never taken for a difference of rows, where verify probes it (a deployment over HTTP)', async () => {
    const a = new MemoryDeployment('A', 40, history());
    const b = restartedAt(new MemoryDeployment('B', 40, history()), 17);
    await expect(verify(a, b)).rejects.toThrow(
      'the proofs on B are not one chain from 1: the proof of 16 was missing when 17 was proved',
    );
  });

  it('is found by a source that scans its proofs (a store), even where both agree at the top', async () => {
    class Scanned extends MemoryDeployment {
      async firstBreak(from: number, to: number) {
        for (let h = from + 1; h <= to; h++) {
          const [p, q] = [this.proofs.get(h), this.proofs.get(h - 1)];
          if (p && !q) return { height: h, why: 'missing' as const };
          if (p && q && p.previous !== q.hash) return { height: h, why: 'unchained' as const };
        }
        return null;
      }
    }
    const a = new Scanned('A', 30, history());
    a.proofs.delete(11);
    const r = await verify(a, new MemoryDeployment('B', 30, history()));
    expect(r).toMatchObject({ outcome: 'cannot' });
    expect(exitCodeOf(r)).toBe(2);
    expect(renderReport(r, ['A', 'B']).join('\n')).toMatch(
      /cannot verify: the proofs on A are not one chain from 1: the proof of 11 was missing when 12 was proved/,
    );
  });
});
