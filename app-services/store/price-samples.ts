/**
 * The price window's samples in the app schema (`price_samples`): one row per asset and
 * committed height, written as the oracle reads them, so a restarted service values and quotes
 * again at once (app-services/market/price-oracle.ts).
 */
import type { Pool } from 'pg';
import { quoteIdent } from '../../src/store';
import type { Sample, SampleStore } from '../market/price-oracle';

export class PriceSampleStore implements SampleStore {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = `${quoteIdent(schema)}.price_samples`;
  }

  async load(assetId: string, from: number, to: number): Promise<Map<number, Sample>> {
    const { rows } = await this.pool.query<{ height: string; pool_id: string | null; price: string | null }>(
      `SELECT height::text AS height, pool_id::text AS pool_id, price::text AS price FROM ${this.table}
        WHERE asset_id = $1 AND height BETWEEN $2 AND $3`,
      [assetId, from, to],
    );
    return new Map(
      rows.map((r) => [
        Number(r.height),
        r.pool_id === null || r.price === null ? null : { poolId: Number(r.pool_id), price: BigInt(r.price) },
      ]),
    );
  }

  async save(assetId: string, samples: ReadonlyMap<number, Sample>): Promise<void> {
    if (!samples.size) return;
    const heights = [...samples.keys()];
    await this.pool.query(
      `INSERT INTO ${this.table} (asset_id, height, pool_id, price)
       SELECT $1, h, p, v FROM unnest($2::bigint[], $3::bigint[], $4::numeric[]) AS t(h, p, v)
       ON CONFLICT (asset_id, height) DO NOTHING`,
      [
        assetId,
        heights,
        heights.map((h) => samples.get(h)?.poolId ?? null),
        heights.map((h) => samples.get(h)?.price.toString() ?? null),
      ],
    );
  }

  async prune(assetId: string, height: number): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.table} WHERE asset_id = $1 AND height < $2`, [assetId, height]);
  }
}
