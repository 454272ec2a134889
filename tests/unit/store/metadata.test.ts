/** The `_metadata` statements every reader runs: the text each reader wrote out before. */
import {
  METADATA_KEY,
  metadataInt,
  metadataTextSql,
  metadataValueSql,
  readMetadata,
  readMetadataValue,
  selectMetadata,
  selectMetadataValue,
  tablesIn,
} from '../../../src/store';

const t = tablesIn('svc').metadata;

describe('_metadata reads', () => {
  it('writes the statements as the readers did', () => {
    expect(t).toBe('"svc"."_metadata"');
    expect(selectMetadataValue(t, METADATA_KEY.indexedHeight)).toBe(
      `SELECT value FROM "svc"."_metadata" WHERE key = 'lastProcessedHeight'`,
    );
    expect(selectMetadata(t, [METADATA_KEY.indexedHeight, METADATA_KEY.targetHeight])).toBe(
      `SELECT key, value FROM "svc"."_metadata" WHERE key IN ('lastProcessedHeight', 'targetHeight')`,
    );
    expect(selectMetadata(t)).toBe('SELECT key, value FROM "svc"."_metadata"');
    expect(metadataValueSql(t, METADATA_KEY.targetHeight)).toBe(
      `(SELECT value FROM "svc"."_metadata" WHERE key = 'targetHeight')`,
    );
    expect(metadataTextSql(t, METADATA_KEY.indexedHeight)).toBe(
      `(SELECT value #>> '{}' FROM "svc"."_metadata" WHERE key = 'lastProcessedHeight')`,
    );
  });

  it('reads values by key; an absent key is undefined, a stored null stays null', async () => {
    const rows = [
      { key: 'lastProcessedHeight', value: 12 },
      { key: 'chain', value: null },
    ];
    const db = {
      query: jest.fn(async (text: string) => ({
        rows: text.startsWith('SELECT value')
          ? rows.filter((r) => text.includes(`'${r.key}'`)).map((r) => ({ value: r.value }))
          : rows,
      })),
    } as never;
    expect(await readMetadataValue(db, t, METADATA_KEY.indexedHeight)).toBe(12);
    expect(await readMetadataValue(db, t, METADATA_KEY.chain)).toBeNull();
    expect(await readMetadataValue(db, t, METADATA_KEY.targetHeight)).toBeUndefined();
    expect([...(await readMetadata(db, t))]).toEqual([
      ['lastProcessedHeight', 12],
      ['chain', null],
    ]);
  });

  it('reads a height as a positive safe integer or 0', () => {
    expect([metadataInt(5), metadataInt('7'), metadataInt(undefined), metadataInt(-1), metadataInt(1.5)]).toEqual([
      5, 7, 0, 0, 0,
    ]);
  });
});
