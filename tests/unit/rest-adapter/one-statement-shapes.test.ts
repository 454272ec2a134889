/** Splitting one-statement answers back apart: a row with its children, an asset's page with its status. */
import { splitAssetScoped } from '../../../rest-adapter/db/asset-scoped';
import type { Sql } from '../../../rest-adapter/db/sql';
import { oneWithChildren } from '../../../rest-adapter/db/with-children';

/** An Sql that answers the canned rows and records the statement. */
function cannedSql(rows: Record<string, unknown>[]): Sql & { seen: { text: string; values: readonly unknown[] }[] } {
  const seen: { text: string; values: readonly unknown[] }[] = [];
  return {
    seen,
    rows: async (text: string, values: readonly unknown[] = []) => {
      seen.push({ text, values });
      return rows as never;
    },
    one: async () => undefined,
  };
}

const spec = { table: '"svc".timeline', columns: ['event', 'height'], parentKey: 'parent_id', orderBy: 'seq' };

describe('oneWithChildren', () => {
  it('no row: undefined', async () => {
    expect(await oneWithChildren(cannedSql([]), 'SELECT id FROM p WHERE id = $1', ['7'], spec)).toBeUndefined();
  });

  it('a parent without children: one row whose child columns are null', async () => {
    const sql = cannedSql([{ id: '7', status: 'x', child_present: false, child_event: null, child_height: null }]);
    expect(await oneWithChildren(sql, 'SELECT id, status FROM p WHERE id = $1', ['7'], spec)).toEqual({
      parent: { id: '7', status: 'x' },
      children: [],
    });
    expect(sql.seen[0].values).toEqual(['7']);
    expect(sql.seen[0].text).toMatch(/LEFT JOIN "svc"\.timeline c ON c\.parent_id = p\.id\s+ORDER BY c\.seq/);
  });

  it('a parent with children: the parent once, the children in row order with their own names', async () => {
    const parent = { id: '7', amount: '123456789012345678901234567890' };
    const sql = cannedSql([
      { ...parent, child_present: true, child_event: 'created', child_height: 5 },
      { ...parent, child_present: true, child_event: 'released', child_height: 9 },
    ]);
    expect(await oneWithChildren(sql, 'SELECT id, amount FROM p WHERE id = $1', ['7'], spec)).toEqual({
      parent,
      children: [
        { event: 'created', height: 5 },
        { event: 'released', height: 9 },
      ],
    });
  });
});

describe('splitAssetScoped', () => {
  it('no row: no such asset', () => {
    expect(splitAssetScoped([])).toBeUndefined();
  });

  it('one row of null page columns: the asset with an empty page', () => {
    expect(
      splitAssetScoped([{ asset_status: 'ASSET_STATUS_ACTIVE', height: null as unknown as number, denom: null }]),
    ).toEqual({ status: 'ASSET_STATUS_ACTIVE', rows: [] });
  });

  it('page rows without the status column', () => {
    const rows = [
      { asset_status: 'ASSET_STATUS_LIQUIDATING', height: 9, denom: 'usvc' },
      { asset_status: 'ASSET_STATUS_LIQUIDATING', height: 4, denom: 'uatom' },
    ];
    expect(splitAssetScoped(rows)).toEqual({
      status: 'ASSET_STATUS_LIQUIDATING',
      rows: [
        { height: 9, denom: 'usvc' },
        { height: 4, denom: 'uatom' },
      ],
    });
  });
});
