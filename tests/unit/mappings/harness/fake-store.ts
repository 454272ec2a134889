/**
 * An in-memory stand-in for the SubQuery store the mappings see as the global `store`:
 * rows per entity name, deep-copied in and out as the node does, eq-filtered and id-ordered
 * field queries, and a log of every write call (to check what a block writes, and how often).
 */
import { isDeepStrictEqual } from 'util';

type Row = Record<string, unknown> & { id: string };

export interface WriteCall {
  entity: string;
  ids: string[];
}

export class FakeStore {
  readonly rows = new Map<string, Map<string, Row>>();
  readonly writes: WriteCall[] = [];

  private table(entity: string): Map<string, Row> {
    let t = this.rows.get(entity);
    if (!t) this.rows.set(entity, (t = new Map()));
    return t;
  }

  /** Every row of an entity, by id. */
  all(entity: string): Row[] {
    return [...this.table(entity).values()].map((r) => structuredClone(r));
  }

  row(entity: string, id: string): Row | undefined {
    const r = this.table(entity).get(id);
    return r && structuredClone(r);
  }

  async get(entity: string, id: string): Promise<Row | undefined> {
    return this.row(entity, id);
  }

  async getByFields(
    entity: string,
    filter: [string, string, unknown][],
    options: { limit: number; offset: number },
  ): Promise<Row[]> {
    for (const [, op] of filter) if (op !== '=') throw new Error(`fake store: operator ${op}`);
    const matching = [...this.table(entity).values()]
      .filter((r) => filter.every(([field, , value]) => isDeepStrictEqual(r[field], value)))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return matching.slice(options.offset, options.offset + options.limit).map((r) => structuredClone(r));
  }

  async bulkUpdate(entity: string, data: Row[]): Promise<void> {
    this.writes.push({ entity, ids: data.map((r) => r.id) });
    for (const r of data) this.table(entity).set(r.id, structuredClone({ ...r }));
  }

  async bulkCreate(entity: string, data: Row[]): Promise<void> {
    await this.bulkUpdate(entity, data);
  }

  async set(entity: string, id: string, data: Row): Promise<void> {
    await this.bulkUpdate(entity, [{ ...data, id }]);
  }
}

/** Installs a fresh fake store as the global `store` the generated entity classes use. */
export function installFakeStore(): FakeStore {
  const s = new FakeStore();
  (globalThis as unknown as { store: FakeStore }).store = s;
  return s;
}
