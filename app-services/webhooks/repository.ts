/**
 * The webhook tables of the app schema (migration 9): subscriptions with their cursors, the
 * delivery log, asked-for redeliveries and the sealing key. A cursor moves only while the
 * writer's fencing epoch (the webhooks actor lock's, actor-lock.ts) is still the stored one, so a
 * process that lost the lock without knowing can never move a cursor the new holder owns.
 */
import crypto from 'crypto';
import type { Pool, PoolClient } from 'pg';
import { quoteIdent, withTransaction } from '../../src/store';
import type { WebhookFilter, WebhookCursor } from './feed';

/** The actor lock's identity (and its row in actor_epochs) of the process that delivers. */
export const WEBHOOKS_ACTOR = 'webhooks';

export type WebhookState = 'active' | 'paused' | 'disabled';

export interface WebhookRow {
  id: string;
  owner: string;
  url: string;
  filter: WebhookFilter;
  blocks: boolean;
  secret: Buffer;
  previous_secret: Buffer | null;
  previous_until: Date | null;
  state: WebhookState;
  reason: string | null;
  cursor_height: string;
  cursor_event: string | null;
  failures: number;
  failing_since: Date | null;
  next_attempt_at: Date | null;
  last_error: string | null;
  delivered: string;
  source: 'api' | 'file';
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  attempt: number;
  status: number | null;
  latency_ms: number;
  error: string | null;
  redelivery: boolean;
  at: Date;
}

export interface NewWebhook {
  owner: string;
  url: string;
  filter: WebhookFilter;
  blocks: boolean;
  secret: Buffer;
  cursor: WebhookCursor;
  source?: 'api' | 'file';
  id?: string;
}

/** One subscription's part of a group commit (advanceMany). */
export interface AdvanceItem {
  id: string;
  /** the cursor the deliverer stored last: the advance is made only from it (compare and set) */
  from: WebhookCursor;
  cursor: WebhookCursor;
  /** events delivered (0: heights passed without one) */
  delivered: number;
  /** the successful attempt's log row */
  log?: { eventId: string; attempt: number; status?: number; latencyMs: number };
}

export const cursorOf = (row: Pick<WebhookRow, 'cursor_height' | 'cursor_event'>): WebhookCursor => ({
  height: Number(row.cursor_height),
  eventId: row.cursor_event,
});

export class WebhookRepository {
  private readonly t: {
    webhooks: string;
    deliveries: string;
    redeliveries: string;
    key: string;
    epochs: string;
    lease: string;
  };

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    const s = quoteIdent(schema);
    this.t = {
      webhooks: `${s}.webhooks`,
      deliveries: `${s}.webhook_deliveries`,
      redeliveries: `${s}.webhook_redeliveries`,
      key: `${s}.webhook_key`,
      epochs: `${s}.actor_epochs`,
      lease: `${s}.webhook_lease`,
    };
  }

  /** The sealing key kept in the schema, made on first use (WEBHOOK_SECRET_KEY unset). */
  async storedKey(): Promise<Buffer> {
    await this.pool.query(`INSERT INTO ${this.t.key} (id, key) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, [
      crypto.randomBytes(32),
    ]);
    const { rows } = await this.pool.query<{ key: Buffer }>(`SELECT key FROM ${this.t.key} WHERE id = 1`);
    return rows[0].key;
  }

  /**
   * A new subscription unless its owner holds `max` already (undefined then). The count and the
   * insert run in one transaction under a lock of the owner's (a transaction-scoped advisory
   * lock), so creates racing for the last place pass one at a time: the second counts the first.
   */
  async createWithin(w: NewWebhook, max: number): Promise<WebhookRow | undefined> {
    return withTransaction(this.pool, async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `svc-app-services/webhooks-owner/${this.t.webhooks}/${w.owner}`,
      ]);
      const { rows } = await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.t.webhooks} WHERE owner = $1`, [
        w.owner,
      ]);
      if (Number(rows[0].n) >= max) return undefined;
      return this.create(w, c);
    });
  }

  async create(w: NewWebhook, db: Pool | PoolClient = this.pool): Promise<WebhookRow> {
    const id = w.id ?? `wh_${crypto.randomBytes(12).toString('hex')}`;
    const { rows } = await db.query<WebhookRow>(
      `INSERT INTO ${this.t.webhooks} (id, owner, url, filter, blocks, secret, state, cursor_height, cursor_event, source)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9) RETURNING *`,
      [
        id,
        w.owner,
        w.url,
        JSON.stringify(w.filter),
        w.blocks,
        w.secret,
        w.cursor.height,
        w.cursor.eventId,
        w.source ?? 'api',
      ],
    );
    return rows[0];
  }

  /**
   * An operator's subscription (WEBHOOKS_FILE, webhooks/file.ts), upserted by its id: created with
   * its cursor, or its target, filter, owner and secret updated (its cursor and state kept);
   * 'refused' when the id is a subscription made through the API.
   */
  async declare(w: NewWebhook & { id: string }): Promise<'created' | 'updated' | 'refused'> {
    const { rows } = await this.pool.query<{ created: boolean }>(
      `INSERT INTO ${this.t.webhooks} (id, owner, url, filter, blocks, secret, state, cursor_height, cursor_event, source)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, 'file')
       ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner, url = EXCLUDED.url, filter = EXCLUDED.filter,
         blocks = EXCLUDED.blocks, secret = EXCLUDED.secret, previous_secret = NULL, previous_until = NULL, updated_at = now()
       WHERE ${this.t.webhooks}.source = 'file'
       RETURNING (xmax = 0) AS created`,
      [w.id, w.owner, w.url, JSON.stringify(w.filter), w.blocks, w.secret, w.cursor.height, w.cursor.eventId],
    );
    if (!rows.length) return 'refused';
    return rows[0].created ? 'created' : 'updated';
  }

  async get(id: string, owner?: string): Promise<WebhookRow | undefined> {
    const { rows } = await this.pool.query<WebhookRow>(
      `SELECT * FROM ${this.t.webhooks} WHERE id = $1 AND ($2::text IS NULL OR owner = $2)`,
      [id, owner ?? null],
    );
    return rows[0];
  }

  async list(owner: string): Promise<WebhookRow[]> {
    const { rows } = await this.pool.query<WebhookRow>(
      `SELECT * FROM ${this.t.webhooks} WHERE owner = $1 ORDER BY created_at, id`,
      [owner],
    );
    return rows;
  }

  async remove(id: string, owner: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(`DELETE FROM ${this.t.webhooks} WHERE id = $1 AND owner = $2`, [
      id,
      owner,
    ]);
    return (rowCount ?? 0) > 0;
  }

  async pause(id: string, owner: string): Promise<WebhookRow | undefined> {
    const { rows } = await this.pool.query<WebhookRow>(
      `UPDATE ${this.t.webhooks} SET state = 'paused', updated_at = now() WHERE id = $1 AND owner = $2 RETURNING *`,
      [id, owner],
    );
    return rows[0];
  }

  /** Active again, its failures forgotten; from `cursor` when given, else from where it stopped. */
  async resume(id: string, owner: string, cursor?: WebhookCursor): Promise<WebhookRow | undefined> {
    const { rows } = await this.pool.query<WebhookRow>(
      `UPDATE ${this.t.webhooks} SET state = 'active', reason = NULL, failures = 0, failing_since = NULL,
         next_attempt_at = NULL, last_error = NULL,
         cursor_height = COALESCE($3, cursor_height), cursor_event = CASE WHEN $3::bigint IS NULL THEN cursor_event ELSE $4 END,
         updated_at = now()
       WHERE id = $1 AND owner = $2 RETURNING *`,
      [id, owner, cursor?.height ?? null, cursor?.eventId ?? null],
    );
    return rows[0];
  }

  async rotate(id: string, owner: string, secret: Buffer, overlapMs: number): Promise<WebhookRow | undefined> {
    const { rows } = await this.pool.query<WebhookRow>(
      `UPDATE ${this.t.webhooks} SET previous_secret = secret, secret = $3,
         previous_until = now() + $4 * interval '1 millisecond', updated_at = now()
       WHERE id = $1 AND owner = $2 RETURNING *`,
      [id, owner, secret, overlapMs],
    );
    return rows[0];
  }

  /** The active subscriptions whose next attempt is due, and those with a redelivery asked for. */
  async due(): Promise<(WebhookRow & { redeliver: boolean })[]> {
    const { rows } = await this.pool.query<WebhookRow & { redeliver: boolean }>(
      `SELECT w.*, EXISTS (SELECT 1 FROM ${this.t.redeliveries} r WHERE r.webhook_id = w.id) AS redeliver
       FROM ${this.t.webhooks} w
       WHERE (state = 'active' AND (next_attempt_at IS NULL OR next_attempt_at <= now()))
          OR EXISTS (SELECT 1 FROM ${this.t.redeliveries} r WHERE r.webhook_id = w.id)`,
    );
    return rows;
  }

  /** Every subscription's state and cursor height (for the lag gauge). */
  async cursors(): Promise<{ id: string; state: WebhookState; cursor_height: string }[]> {
    const { rows } = await this.pool.query<{ id: string; state: WebhookState; cursor_height: string }>(
      `SELECT id, state, cursor_height FROM ${this.t.webhooks}`,
    );
    return rows;
  }

  /**
   * Group commit of successful deliveries (and of heights passed without events): every
   * subscription's cursor advance and its log row, for a batch of subscriptions, in one statement
   * (so one transaction: a kill leaves all of them or none). Fenced by `epoch` like advance(); a
   * subscription deleted meanwhile is skipped (no log row: its FK would fail the whole batch).
   * A cursor moves only from the one the deliverer stored last: one changed under it (a resume
   * from another event between two polls) is kept, and its task ends. At most one item per
   * subscription (each has one delivery in flight). `holds`: false when fenced out; `moved`: the
   * subscriptions whose cursor moved.
   */
  async advanceMany(
    items: readonly AdvanceItem[],
    epoch: bigint,
    keep: number,
  ): Promise<{ holds: boolean; moved: Set<string> }> {
    const col = <T>(f: (i: AdvanceItem) => T) => items.map(f);
    const { rows } = await this.pool.query<{ holds: boolean; moved: string[] | null }>(
      `WITH v AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::int[], $5::text[], $6::int[], $7::int[], $8::int[], $12::bigint[], $13::text[])
           AS v(id, height, event, delivered, log_event, attempt, status, latency, from_height, from_event)),
       fence AS (SELECT 1 FROM ${this.t.epochs} WHERE address = $9 AND epoch = $10),
       moved AS (
         UPDATE ${this.t.webhooks} w SET cursor_height = v.height, cursor_event = v.event,
           delivered = w.delivered + v.delivered, failures = 0, failing_since = NULL, next_attempt_at = NULL,
           last_error = NULL, updated_at = now()
         FROM v WHERE w.id = v.id AND EXISTS (SELECT 1 FROM fence)
           AND w.cursor_height = v.from_height AND w.cursor_event IS NOT DISTINCT FROM v.from_event
         RETURNING w.id),
       logged AS (
         INSERT INTO ${this.t.deliveries} (webhook_id, event_id, attempt, status, latency_ms, redelivery)
         SELECT v.id, v.log_event, v.attempt, v.status, v.latency, false FROM v
         WHERE v.log_event IS NOT NULL AND v.id IN (SELECT id FROM moved) RETURNING webhook_id, id),
       trimmed AS (
         DELETE FROM ${this.t.deliveries} d USING (SELECT webhook_id, max(id) AS top FROM logged GROUP BY webhook_id) l
         WHERE d.webhook_id = l.webhook_id AND d.id <= l.top - $11)
       SELECT EXISTS (SELECT 1 FROM fence) AS holds, (SELECT array_agg(id) FROM moved) AS moved`,
      [
        col((i) => i.id),
        col((i) => i.cursor.height),
        col((i) => i.cursor.eventId),
        col((i) => i.delivered),
        col((i) => i.log?.eventId ?? null),
        col((i) => i.log?.attempt ?? null),
        col((i) => i.log?.status ?? null),
        col((i) => (i.log ? Math.round(i.log.latencyMs) : null)),
        WEBHOOKS_ACTOR,
        epoch.toString(),
        keep,
        col((i) => i.from.height),
        col((i) => i.from.eventId),
      ],
    );
    return { holds: rows[0]?.holds === true, moved: new Set(rows[0]?.moved ?? []) };
  }

  /**
   * A failed attempt and its log row in one statement: the next attempt after `retryMs`;
   * disabled with `disableReason` when given. Fenced by `epoch`.
   */
  async failedWithLog(
    id: string,
    a: { eventId: string; attempt: number; status?: number; latencyMs: number; error?: string },
    retryMs: number,
    disableReason: string | undefined,
    epoch: bigint,
    keep: number,
  ): Promise<boolean> {
    const { rows } = await this.pool.query<{ moved: boolean }>(
      `WITH moved AS (
         UPDATE ${this.t.webhooks} SET failures = failures + 1, failing_since = COALESCE(failing_since, now()),
           last_error = $2, next_attempt_at = now() + $3 * interval '1 millisecond',
           state = CASE WHEN $4::text IS NULL THEN state ELSE 'disabled' END, reason = COALESCE($4, reason), updated_at = now()
         WHERE id = $1 AND (SELECT epoch FROM ${this.t.epochs} WHERE address = $5) = $6 RETURNING id),
       logged AS (
         INSERT INTO ${this.t.deliveries} (webhook_id, event_id, attempt, status, latency_ms, error, redelivery)
         SELECT id, $7, $8, $9, $10, $2, false FROM moved RETURNING id),
       trimmed AS (DELETE FROM ${this.t.deliveries} WHERE webhook_id = $1 AND id <= (SELECT id - $11 FROM logged))
       SELECT EXISTS (SELECT 1 FROM moved) AS moved`,
      [
        id,
        (a.error ?? 'failed').slice(0, 500),
        retryMs,
        disableReason ?? null,
        WEBHOOKS_ACTOR,
        epoch.toString(),
        a.eventId,
        a.attempt,
        a.status ?? null,
        Math.round(a.latencyMs),
        keep,
      ],
    );
    return rows[0]?.moved === true;
  }

  /**
   * The deliverer's lease, taken by the new holder of the webhooks lock (`epoch`) for `leaseMs`:
   * answers how long to wait before the first delivery, so that whatever the previous holder may
   * still have in flight has ended: until its lease (it posts only while its renewal is fresh)
   * plus one delivery timeout; 0 after a clean release or on the first start.
   */
  async claimLease(epoch: bigint, leaseMs: number, timeoutMs: number): Promise<number> {
    const { rows } = await this.pool.query<{ wait: string | null }>(
      `WITH old AS (SELECT until FROM ${this.t.lease} WHERE id = 1)
       INSERT INTO ${this.t.lease} (id, epoch, until) VALUES (1, $1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (id) DO UPDATE SET epoch = EXCLUDED.epoch, until = EXCLUDED.until
       RETURNING (SELECT GREATEST(0, ceil(extract(epoch FROM old.until + $3 * interval '1 millisecond' - now()) * 1000))
                  FROM old) AS wait`,
      [epoch.toString(), leaseMs, timeoutMs],
    );
    return Number(rows[0]?.wait ?? 0);
  }

  /** Renews the lease for `leaseMs`; false when another holder has claimed it (this one is fenced out). */
  async renewLease(epoch: bigint, leaseMs: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE ${this.t.lease} SET until = now() + $2 * interval '1 millisecond' WHERE id = 1 AND epoch = $1`,
      [epoch.toString(), leaseMs],
    );
    return (rowCount ?? 0) > 0;
  }

  /** A clean stop: nothing of this holder is in flight any more, the next one need not wait. */
  async releaseLease(epoch: bigint): Promise<void> {
    await this.pool.query(`UPDATE ${this.t.lease} SET until = NULL WHERE id = 1 AND epoch = $1`, [epoch.toString()]);
  }

  async logAttempt(
    id: string,
    a: { eventId: string; attempt: number; status?: number; latencyMs: number; error?: string; redelivery: boolean },
    keep: number,
  ): Promise<void> {
    await this.pool.query(
      `WITH added AS (
         INSERT INTO ${this.t.deliveries} (webhook_id, event_id, attempt, status, latency_ms, error, redelivery)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id)
       DELETE FROM ${this.t.deliveries} WHERE webhook_id = $1 AND id <= (SELECT id - $8 FROM added)`,
      [id, a.eventId, a.attempt, a.status ?? null, a.latencyMs, a.error?.slice(0, 500) ?? null, a.redelivery, keep],
    );
  }

  async deliveries(id: string, limit: number): Promise<DeliveryRow[]> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT id, event_id, attempt, status, latency_ms, error, redelivery, at FROM ${this.t.deliveries}
       WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`,
      [id, limit],
    );
    return rows;
  }

  async askRedelivery(id: string, eventId: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.t.redeliveries} (webhook_id, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [id, eventId],
    );
  }

  async redeliveries(id: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ event_id: string }>(
      `SELECT event_id FROM ${this.t.redeliveries} WHERE webhook_id = $1 ORDER BY requested_at`,
      [id],
    );
    return rows.map((r) => r.event_id);
  }

  async redelivered(id: string, eventId: string): Promise<void> {
    await this.pool.query(`DELETE FROM ${this.t.redeliveries} WHERE webhook_id = $1 AND event_id = $2`, [id, eventId]);
  }
}
