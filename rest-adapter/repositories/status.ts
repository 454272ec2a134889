/** SQL for /v1/status: the node's progress (_metadata), the chain counters, reconciliation disagreements; the scalar subqueries other statements read beside their rows. */
import { statement } from '../db/statement';
import type { HeadReading } from '../db/head';
import type { KeptRange } from '../http/height';
import {
  METADATA_KEY,
  metadataInt,
  metadataTextSql,
  metadataValueSql,
  selectMetadata,
  type Tables,
} from '../../src/store';
import { proofJoin, proofOf, type ProofColumns, type ProofRow } from './proofs';

export interface Progress {
  /** _metadata.lastProcessedHeight (0 before the first block) */
  indexedHeight: number;
  /** _metadata.targetHeight: the chain tip the node last saw */
  targetHeight: number;
}

export interface TotalsRow {
  tx_count: number;
  drift_total: number;
  latest_height: number;
  latest_block_time: string;
}

/** Block intervals whose median is the head answers' freshness (repositories/status.ts `head`). */
export const HEAD_INTERVALS = 10;

/** Length of the /v1/stats daily series (UTC days ending on the latest block's day). */
export const DAILY_SERIES_DAYS = 14;

export interface DayCountRow {
  day: string;
  count: number;
}

/** The node's `_metadata.lastProcessedHeight` as a scalar subquery, for statements that read it beside their rows (parse with metadataInt). */
export function indexedHeightSql(t: Tables): string {
  return metadataValueSql(t.metadata, METADATA_KEY.indexedHeight);
}

/** The latest indexed block's time (ChainTotals; store text, null before the first block) as a scalar subquery. */
export function latestBlockTimeSql(t: Tables): string {
  return `(SELECT latest_block_time FROM ${t.chainTotals} WHERE id = 'chain')`;
}

/**
 * The reconciler's generation as a scalar subquery: per check table (InvariantCheck, Svc20Check,
 * I8Check, which only the reconciler writes: reconciler/check-writer.ts), the row count and the
 * sum of the ids' hashes, digested. The writer inserts rows (never updates them, so an id names
 * one row's content) and deletes superseded ones; either changes the count or the set of ids,
 * and so the value (a set change that keeps both count and sum has odds of about 2^-32).
 * A scan of the three tables, which hold about one row per check plus the disagreements kept.
 */
export function reconcilerGenerationSql(t: Tables): string {
  const watermark = (table: string) => `(SELECT count(*) || ':' || coalesce(sum(hashtext(id)), 0) FROM ${table})`;
  return `left(md5(concat_ws('|', ${[t.invariantChecks, t.svc20Checks, t.i8Checks].map(watermark).join(', ')})), 16)`;
}

/** Everything /v1/status reads, from one statement. */
export interface StatusRead {
  progress: Progress;
  totals: TotalsRow | undefined;
  reconciliationDisagreements: number;
  /** the proof of indexing at the indexed height (none before the first block, or with the proof off) */
  proof: ProofRow | undefined;
}

export function createStatusRepository(t: Tables) {
  const progress = statement('values', async (sql): Promise<Progress> => {
    const rows = await sql.rows<{ key: string; value: unknown }>(
      selectMetadata(t.metadata, [METADATA_KEY.indexedHeight, METADATA_KEY.targetHeight]),
    );
    const byKey = new Map(rows.map((r) => [r.key, metadataInt(r.value)]));
    return { indexedHeight: byKey.get('lastProcessedHeight') ?? 0, targetHeight: byKey.get('targetHeight') ?? 0 };
  });

  // Reconciliation rows that disagree (written by the reconciler). Rows not evaluated (older
  // chains) are never drift. Counted per request: the reconciler has no counter yet.
  const disagreementsSql = `(SELECT count(*) FROM ${t.invariantChecks} WHERE NOT agree)
            + (SELECT count(*) FROM ${t.svc20Checks} WHERE evaluated AND NOT agree)
            + (SELECT count(*) FROM ${t.i8Checks} WHERE evaluated AND NOT agree)`;

  // the proof at the indexed height: BlockProof ids are heights as text, as _metadata holds it
  const proof = proofJoin(t, 'p', metadataTextSql(t.metadata, METADATA_KEY.indexedHeight));

  /** Progress, counters, reconciliation disagreements and the proof in one statement (one snapshot, one round trip). */
  const status = statement('values', async (sql): Promise<StatusRead> => {
    const row = await sql.one<
      { indexed: unknown; target: unknown; disagreements: string } & {
        [K in keyof TotalsRow]: TotalsRow[K] | null;
      } & ProofColumns
    >(
      `SELECT ${indexedHeightSql(t)} AS indexed,
              ${metadataValueSql(t.metadata, METADATA_KEY.targetHeight)} AS target,
              c.tx_count, c.drift_total, c.latest_height, c.latest_block_time,
              ${disagreementsSql} AS disagreements, ${proof.select}
       FROM (SELECT 1) one LEFT JOIN ${t.chainTotals} c ON c.id = 'chain' ${proof.join}`,
    );
    const { indexed, target, disagreements, tx_count, drift_total, latest_height, latest_block_time } = row ?? {
      indexed: 0,
      target: 0,
      disagreements: '0',
      tx_count: null,
    };
    return {
      progress: { indexedHeight: metadataInt(indexed), targetHeight: metadataInt(target) },
      // no ChainTotals row before the first block: the LEFT JOIN leaves its columns null
      totals:
        tx_count === null || tx_count === undefined
          ? undefined
          : ({ tx_count, drift_total, latest_height, latest_block_time } as TotalsRow),
      reconciliationDisagreements: Number(disagreements),
      proof: proofOf(row),
    };
  });

  /**
   * What the app's HeightWatcher polls, in one statement (one snapshot): the indexed height, the
   * median of the latest HEAD_INTERVALS block intervals (the freshness of head answers,
   * http/validators.ts) and the reconciler's generation.
   */
  const head = statement('values', async (sql): Promise<HeadReading> => {
    const row = await sql.one<{ indexed: unknown; interval_ms: number | null; generation: string }>(
      `SELECT ${indexedHeightSql(t)} AS indexed,
              ${reconcilerGenerationSql(t)} AS generation,
              (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY gap)
               FROM (SELECT extract(epoch FROM time - lag(time) OVER (ORDER BY height)) * 1000 AS gap
                     FROM (SELECT height, time FROM ${t.blocks} ORDER BY height DESC LIMIT ${HEAD_INTERVALS + 1}) latest) gaps
               WHERE gap IS NOT NULL)::float8 AS interval_ms`,
    );
    return {
      indexedHeight: metadataInt(row?.indexed),
      blockIntervalMs: row?.interval_ms ?? null,
      reconcilerGeneration: row?.generation,
    };
  });

  /**
   * The heights an answer can be asked at (`?height`, http/height.ts). Every height the index wrote
   * is kept (no pruning yet): the first indexed block .. the indexed height; empty before a block.
   */
  const keptRange = statement('once', async (sql): Promise<KeptRange> => {
    const row = await sql.one<{ kept_from: number | null; kept_to: unknown }>(
      `SELECT (SELECT min(height) FROM ${t.blocks}) AS kept_from, ${indexedHeightSql(t)} AS kept_to`,
    );
    const to = metadataInt(row?.kept_to);
    return { from: row?.kept_from ?? to + 1, to };
  });

  return { progress, status, head, keptRange };
}

export type StatusRepository = ReturnType<typeof createStatusRepository>;
