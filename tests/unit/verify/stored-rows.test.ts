/**
 * How verify reads rows back (verify/model.ts, verify/values.ts): tables and field kinds as the
 * node makes them from schema.graphql, and stored values (PostgreSQL text, PostGraphile JSON)
 * back to what the mappings wrote, so a row's leaf recomputes; and its arguments (launcher/verify-main.ts).
 */
import fs from 'fs';
import { parseArgs, UsageError } from '../../../launcher/verify-main';
import { recordText } from '../../../src/lib/proof';
import { tablesIn } from '../../../src/store';
import { entityModels, SCHEMA_FILE, tableOf } from '../../../verify/model';
import { fromColumns, fromGraphql, parseTimestamp } from '../../../verify/values';

const models = entityModels(fs.readFileSync(SCHEMA_FILE, 'utf8'));

describe('the entity model of schema.graphql', () => {
  it('names every table as the store room does (the node: underscored plural)', () => {
    const room = tablesIn('s');
    const byTable = new Map([...models.values()].map((m) => [`"s"."${m.table}"`, m.name]));
    for (const qualified of Object.values(room)) {
      if (qualified.endsWith('"_metadata"')) continue;
      expect([qualified, byTable.has(qualified)]).toEqual([qualified, true]);
    }
    expect(tableOf('Tx')).toBe('txes');
    expect(models.get('BlockProof')).toMatchObject({ table: 'block_proofs', collection: 'blockProofs' });
    expect(models.get('EncumbranceTimelineEntry')?.collection).toBe('encumbranceTimelineEntries');
  });

  it('gives each field the kind the store gives back', () => {
    const kind = (entity: string, field: string) => models.get(entity)!.fields.find((f) => f.name === field)?.kind;
    expect(kind('Block', 'time')).toBe('timestamp');
    expect(kind('Kind', 'supply')).toBe('numeric');
    expect(kind('Kind', 'term')).toBe('json');
    expect(kind('Kind', 'accrualDenoms')).toBe('json');
    expect(kind('Block', 'height')).toBe('int');
    expect(models.get('Kind')!.byColumn.get('policy_override')?.name).toBe('policyOverride');
  });
});

describe('stored values back to the mappings’ values', () => {
  it('reads a timestamp without time zone as UTC, to the millisecond, in the forms PostgreSQL and PostGraphile write', () => {
    const iso = (s: string) => (parseTimestamp(s) as Date).toISOString();
    expect(iso('2026-01-05 00:00:12')).toBe('2026-01-05T00:00:12.000Z');
    expect(iso('2026-01-05 00:00:12.5')).toBe('2026-01-05T00:00:12.500Z');
    expect(iso('2026-01-05T00:00:12.123456')).toBe('2026-01-05T00:00:12.123Z');
    expect(iso('0001-01-01 00:00:00')).toBe('0001-01-01T00:00:00.000Z');
    expect(iso('2026-01-05T02:00:12+02:00')).toBe('2026-01-05T00:00:12.000Z');
    expect(parseTimestamp('infinity')).toBe('infinity');
  });

  it('gives a row read from PostgreSQL the record text the mapping wrote', () => {
    const written = {
      id: '5',
      height: 5,
      time: new Date(Date.UTC(2026, 0, 5, 0, 0, 5, 250)),
      supply: 2n ** 80n,
      policy: { transfer: 'TRANSFER_MODE_OPEN', allowlist: [] },
      note: undefined,
    };
    const oids = new Map([
      ['id', 25],
      ['height', 23],
      ['time', 1114],
      ['supply', 1700],
      ['policy', 3802],
      ['note', 25],
    ]);
    const row = {
      id: '5',
      height: 5,
      time: '2026-01-05 00:00:05.25',
      supply: (2n ** 80n).toString(),
      policy: { allowlist: [], transfer: 'TRANSFER_MODE_OPEN' },
      note: null,
    };
    expect(recordText(fromColumns(undefined, row, oids))).toBe(recordText(written));
    // a column this schema does not declare (another schema version) keeps the node's naming, reversed
    expect(fromColumns(models.get('Block'), { tx_count: 3, extra_field: 'x' }, new Map())).toEqual({
      txCount: 3,
      extraField: 'x',
    });
  });

  it('gives a GraphQL node the record text the mapping wrote', () => {
    const model = models.get('Kind')!;
    const node = {
      id: 'a-0',
      supply: '12',
      term: { label: 'x', end: null },
      accrualDenoms: ['uusdc'],
      policyOverride: null,
    };
    const text = recordText(fromGraphql(model, node));
    expect(text).toBe(
      recordText({ id: 'a-0', supply: 12n, term: { label: 'x', end: null }, accrualDenoms: ['uusdc'] }),
    );
  });
});

describe('verify arguments', () => {
  it('takes exactly one other deployment and well-formed URLs, and refuses the rest naming the option', () => {
    expect(parseArgs(['--against', 'http://a:3000', '--rows', '3', '--json'])).toEqual({
      against: 'http://a:3000',
      rows: 3,
      json: true,
    });
    expect(parseArgs(['--db', 'postgres://u@h/db', '--base', 'http://b:3000'])).toMatchObject({
      db: 'postgres://u@h/db',
      base: 'http://b:3000',
    });
    const refused = (argv: string[]) => {
      try {
        parseArgs(argv);
      } catch (e) {
        if (e instanceof UsageError) return e.message;
        throw e;
      }
      return 'accepted';
    };
    expect(refused(['--against', 'http://a', '--db', 'postgres://h/db'])).toMatch(/exactly one of/);
    expect(refused(['--db', 'http://a'])).toBe('--db: expected postgres: or postgresql: URL, got http://a');
    expect(refused(['--against'])).toBe('--against needs a value');
    expect(refused(['--against', 'http://a', '--rows', '-1'])).toBe('--rows takes a non-negative integer');
    expect(refused(['--against', 'http://a', '--schema', 'Bad-Name'])).toMatch(/^--schema: not a lower-case/);
    expect(refused(['--frobnicate'])).toBe('unknown option --frobnicate');
  });
});
