/**
 * The proof-of-indexing encoding (src/lib/proof.ts): a row's canonical text is a function of what
 * the store holds, not of how a mapping happened to hold it; the hashes are pinned by vectors,
 * so a change of the scheme shows here before two deployments disagree over it.
 */
import { sha256 } from '@noble/hashes/sha2';
import fc from 'fast-check';
import {
  blockProofHash,
  entitiesRoot,
  leafPrefix,
  proofEnabled,
  proveWrites,
  recordText,
  rowLeaf,
  typeRoot,
  WRITE_LEAF_HEX,
} from '../../../src/lib/proof';
import { bytesToHex } from '../../../src/lib/bytes';

const hex = (text: string) => bytesToHex(sha256(Buffer.from(text, 'utf8')));

describe('recordText: a row as the store holds it', () => {
  it('sorts fields, leaves unset ones out, and writes each kind of value in one form', () => {
    const text = recordText({
      units: 12n,
      id: 'a-1',
      note: undefined,
      txHash: null,
      time: new Date(Date.UTC(2026, 0, 5, 0, 0, 12, 500)),
      ok: false,
      count: 3,
      locks: [{ units: '5', ref: 'x' }],
      label: 'say "hi"',
    });
    expect(text).toBe(
      [
        'count=n3',
        'id=s3:a-1',
        'label=s8:say "hi"', // a length, not escapes
        'locks=j25:[{"ref":"x","units":"5"}]',
        'ok=b0',
        'time=d2026-01-05T00:00:12.500Z',
        'units=n12',
        '',
      ].join('\n'),
    );
  });

  it('cannot be fooled by a string that looks like more fields', () => {
    expect(recordText({ a: 'x\nb=s1:y' })).not.toBe(recordText({ a: 'x', b: 'y' }));
    expect(recordText({ a: 'x\nb=s1:y' })).toBe('a=s8:x\nb=s1:y\n');
  });

  it('gives a BigInt field one text whether the mapping held a bigint or a number (the store holds numeric)', () => {
    expect(recordText({ id: 'x', supply: 7n })).toBe(recordText({ id: 'x', supply: 7 }));
  });

  it('gives a JSON field the text jsonb gives back: key order, undefined members and Dates as JSON.stringify sends them', () => {
    const held = { b: 1, a: { d: undefined, c: [1, undefined] }, at: new Date(0) };
    const stored = JSON.parse(JSON.stringify(held));
    expect(recordText({ id: 'x', j: held })).toBe(recordText({ id: 'x', j: stored }));
    expect(recordText({ id: 'x', j: held })).toBe(
      'id=s1:x\nj=j58:{"a":{"c":[1,null]},"at":"1970-01-01T00:00:00.000Z","b":1}\n',
    );
  });

  it('gives any JSON field the text of what jsonb holds of it (JSON.stringify, then parsed), for any value', () => {
    const held = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(undefined),
        fc.constant(null),
        fc.boolean(),
        fc.double(),
        fc.string({ unit: 'binary' }),
        fc.date({ noInvalidDate: true }),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    // a JSON field holds an object or an array (AnyJson, [AnyJson], [String])
    const field = fc.oneof(fc.array(held, { maxLength: 4 }), fc.dictionary(fc.string(), held, { maxKeys: 5 }));
    fc.assert(
      fc.property(field, (v) => {
        const stored = JSON.parse(JSON.stringify(v)) as object;
        expect(recordText({ id: 'x', j: v })).toBe(recordText({ id: 'x', j: stored }));
      }),
      { numRuns: 500 },
    );
  });

  it('hashes a lone surrogate as U+FFFD, as PostgreSQL text keeps it', () => {
    expect(rowLeaf('T', { id: 'x', memo: 'a\ud800b' })).toEqual(rowLeaf('T', { id: 'x', memo: 'a\ufffdb' }));
    expect(rowLeaf('T', { id: 'x', memo: 'a\ud83d\ude00b' })).not.toEqual(rowLeaf('T', { id: 'x', memo: 'a\ufffdb' }));
  });

  it('never throws, whatever the mapping put in a field', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const v of [NaN, Infinity, new Date(NaN), { big: 1n }, cyclic, Symbol('s'), () => 1]) {
      expect(typeof recordText({ id: 'x', v })).toBe('string');
    }
  });
});

describe('hashes (pinned: a change here is a new scheme)', () => {
  it('rowLeaf is sha256 of the scheme, the type and the record text', () => {
    const fields = { id: '1', height: 1 };
    expect(bytesToHex(rowLeaf('Block', fields))).toBe(hex('svc-poi/v1\nrow\nBlock\nheight=n1\nid=s1:1\n'));
    expect(leafPrefix(rowLeaf('Block', fields))).toHaveLength(WRITE_LEAF_HEX);
  });

  it('typeRoot hashes the leaves as bytes, entitiesRoot the roots by type name, blockProofHash chains', () => {
    const a = rowLeaf('T', { id: 'a' });
    const b = rowLeaf('T', { id: 'b' });
    expect(typeRoot('T', [a, b])).toBe(
      bytesToHex(sha256(Buffer.concat([Buffer.from('svc-poi/v1\ntype\nT\n'), Buffer.from(a), Buffer.from(b)]))),
    );
    expect(entitiesRoot({ Z: 'zz', A: 'aa' })).toBe(hex('svc-poi/v1\nentities\nA aa\nZ zz\n'));
    expect(blockProofHash({ height: 7, blockHash: 'AB', entitiesRoot: 'cd', previous: '' })).toBe(
      hex('svc-poi/v1\nblock\n7\nAB\ncd\n'),
    );
    expect(blockProofHash({ height: 7, blockHash: 'AB', entitiesRoot: 'cd', previous: 'ee' })).not.toBe(
      blockProofHash({ height: 7, blockHash: 'AB', entitiesRoot: 'cd', previous: '' }),
    );
  });
});

describe('proveWrites', () => {
  const rows = [
    { type: 'Tx', id: 'b', fields: { id: 'b', n: 2 } },
    { type: 'Block', id: '5', fields: { id: '5', height: 5 } },
    { type: 'Tx', id: 'a', fields: { id: 'a', n: 1 } },
  ];

  it('does not depend on the order the block wrote its rows in', () => {
    const one = proveWrites(rows);
    const other = proveWrites([...rows].reverse());
    expect(other).toEqual(one);
    expect(Object.keys(one.roots)).toEqual(['Block', 'Tx']);
    expect(one.entitiesRoot).toBe(entitiesRoot(one.roots));
    expect(one.roots.Tx).toBe(typeRoot('Tx', [rowLeaf('Tx', rows[2].fields), rowLeaf('Tx', rows[0].fields)]));
  });

  it('logs each row once, by type and id, with its leaf prefix; a row written twice counts as its last write', () => {
    const twice = proveWrites([...rows, { type: 'Tx', id: 'a', fields: { id: 'a', n: 9 } }]);
    const log = JSON.parse(twice.writesLog) as Record<string, Record<string, string>>;
    expect(Object.keys(log)).toEqual(['Block', 'Tx']);
    expect(Object.keys(log.Tx)).toEqual(['a', 'b']);
    expect(log.Tx.a).toBe(leafPrefix(rowLeaf('Tx', { id: 'a', n: 9 })));
    expect(twice.roots.Tx).not.toBe(proveWrites(rows).roots.Tx);
  });

  it('tells a changed field apart', () => {
    expect(proveWrites([{ type: 'T', id: 'a', fields: { id: 'a', v: '1' } }]).entitiesRoot).not.toBe(
      proveWrites([{ type: 'T', id: 'a', fields: { id: 'a', v: '2' } }]).entitiesRoot,
    );
  });
});

describe('the PROOF_OF_INDEXING setting', () => {
  it('is on by default and when true, off when false, and refuses anything else naming itself', () => {
    expect(proofEnabled({})).toBe(true);
    expect(proofEnabled({ PROOF_OF_INDEXING: '' })).toBe(true);
    expect(proofEnabled({ PROOF_OF_INDEXING: 'true' })).toBe(true);
    expect(proofEnabled({ PROOF_OF_INDEXING: 'false' })).toBe(false);
    expect(() => proofEnabled({ PROOF_OF_INDEXING: 'off' })).toThrow(/PROOF_OF_INDEXING: expected true or false/);
  });
});
