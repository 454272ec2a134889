/**
 * The webhooks' deliverer. One process at a time delivers (the `webhooks` actor lock,
 * actor-lock.ts, with its fencing epoch); the others stand by and serve /api/webhooks. While it
 * holds the lock it looks every `pollMs` at the indexed height and at the subscriptions due, and
 * runs at most `concurrency` subscriptions at once, each as one task: its events after its cursor,
 * read from the index (WebhookFeed), POSTed one after the other, one in flight. A 2xx moves the
 * cursor in PostgreSQL past the event; anything else ends the task, and the subscription is tried
 * again after an exponential backoff with jitter, from the same event, until it has failed for
 * WEBHOOK_RETRY_HOURS: then it is disabled with the reason. A kill at any moment so loses nothing:
 * the next holder starts from the stored cursors and at most redelivers the events that were in flight.
 *
 * Never two deliverers at once, even when a holder loses its lock without knowing (paused, cut
 * off from PostgreSQL) or knows but still has posts in flight: the holder renews a lease
 * (webhook_lease) at each poll, fenced by its epoch, and starts a POST only while its last renewal
 * is younger than the lease (`leaseMs`); a new holder first waits until the previous lease plus one
 * WEBHOOK_TIMEOUT_MS have passed (nothing after a clean stop, which releases the lease), so every
 * POST of the previous holder has ended before its own first one.
 */
import { ActorLock } from '../actor-lock';
import type { PartLogger } from '../../src/lib/logger';
import type { WebhookCursor, WebhookEvent, WebhookFeed, WebhookFilter } from './feed';
import { cursorOf, WEBHOOKS_ACTOR, type WebhookRepository, type WebhookRow } from './repository';
import { signatureHeader, type SecretBox } from './secrets';
import { Poster, type DeliveryResult } from './target';

export interface WebhookSettings {
  timeoutMs: number;
  retryHours: number;
  retryBaseMs: number;
  retryMaxMs: number;
  allowPrivate: boolean;
  concurrency: number;
  perTarget: number;
  pollMs: number;
  maxPerKey: number;
  logKeep: number;
  rotateOverlapMs: number;
}

/** For /metrics. */
export interface WebhookObserver {
  webhookDelivered(id: string): void;
  webhookFailed(id: string): void;
  /** heights between the indexed height and the subscription's cursor */
  webhookLag(id: string, blocks: number): void;
}

export interface DispatcherOptions {
  repository: WebhookRepository;
  feed: WebhookFeed;
  box: () => SecretBox;
  settings: WebhookSettings;
  connection: { connectionString: string };
  schema: string;
  lockRetryMs: number;
  log: PartLogger;
  observer?: WebhookObserver;
  now?: () => number;
}

/** The body of a delivery: the stream's event (its id, its event name, its data) as one JSON object. */
export function deliveryBody(event: Pick<WebhookEvent, 'id' | 'kind' | 'json'>): string {
  return `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.kind)},"data":${event.json}}`;
}

/** The wait before attempt `failures + 1`: base·2^(failures−1), at most max, with jitter (a half to the whole). */
export function backoffMs(failures: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export class WebhookDispatcher {
  private readonly lock: ActorLock;
  private readonly poster: Poster;
  private epoch: bigint | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Map<string, Promise<void>>();
  private ticking = false;
  private stopped = false;
  private readonly now: () => number;
  /** performance.now() before which this holder starts no POST: its last renewal plus the lease */
  private leaseUntil = 0;
  /** performance.now() before which a new holder delivers nothing (the previous holder's lease and timeout) */
  private startAt = Infinity;
  /** how long a renewal of the lease lets this process start POSTs */
  readonly leaseMs: number;

  constructor(private readonly o: DispatcherOptions) {
    this.now = o.now ?? Date.now;
    this.leaseMs = Math.max(1000, 5 * o.settings.pollMs);
    this.poster = new Poster({
      timeoutMs: o.settings.timeoutMs,
      allowPrivate: o.settings.allowPrivate,
      perTarget: o.settings.perTarget,
    });
    this.lock = new ActorLock({
      connection: o.connection,
      address: WEBHOOKS_ACTOR,
      schema: o.schema,
      retryMs: o.lockRetryMs,
      onAcquired: (epoch) => {
        this.epoch = epoch;
        this.leaseUntil = 0;
        this.startAt = Infinity;
        void this.claim(epoch);
      },
      onLost: (reason) => {
        this.epoch = undefined;
        this.leaseUntil = 0;
        clearTimeout(this.timer);
        o.log.warn('stopped delivering webhooks: the actor lock is lost', { reason });
      },
      onError: (error) => o.log.warn('webhooks lock attempt failed', { error: String(error) }),
    });
  }

  /** Whether this process delivers now. */
  get delivering(): boolean {
    return this.epoch !== undefined && !this.stopped;
  }

  start(): void {
    this.lock.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(this.running.values());
    // nothing of this holder is in flight now: the next one need not wait
    if (this.epoch !== undefined) await this.o.repository.releaseLease(this.epoch).catch(() => undefined);
    await this.lock.stop();
    this.poster.close();
  }

  /** A look now rather than at the next poll (a subscription was resumed or a redelivery asked for). */
  wake(): void {
    if (this.delivering && !this.ticking && performance.now() >= this.startAt) this.schedule(0);
  }

  /** The lease of a new holder, then its first look once the previous holder's posts have surely ended. */
  private async claim(epoch: bigint): Promise<void> {
    try {
      const waitMs = await this.o.repository.claimLease(epoch, this.leaseMs, this.o.settings.timeoutMs);
      if (this.epoch !== epoch || this.stopped) return;
      this.startAt = performance.now() + waitMs;
      this.o.log.info('delivering webhooks', {
        epoch: epoch.toString(),
        ...(waitMs > 0 && { first_after_ms: waitMs }),
      });
      this.schedule(waitMs);
    } catch (e) {
      this.o.log.warn('webhooks: taking the lease failed; giving the lock up', {
        error: e instanceof Error ? e.message : String(e),
      });
      this.fencedOut(epoch);
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    if (this.stopped || this.epoch === undefined) return;
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    const epoch = this.epoch;
    if (epoch === undefined || this.stopped) return;
    const early = this.startAt - performance.now();
    if (early > 0) return this.schedule(early); // a slot freed by the previous holding's task: not yet
    this.ticking = true;
    try {
      const renewing = performance.now();
      if (!(await this.o.repository.renewLease(epoch, this.leaseMs))) return this.fencedOut(epoch);
      if (this.epoch === epoch) this.leaseUntil = renewing + this.leaseMs;
      const indexed = await this.o.feed.indexedHeight();
      if (indexed !== undefined) {
        const due = await this.o.repository.due();
        for (const row of due) {
          if (this.running.size >= this.o.settings.concurrency) break;
          if (this.running.has(row.id)) continue;
          const behind = Number(row.cursor_height) < indexed || row.cursor_event !== null;
          if (!behind && !row.redeliver) continue;
          const task = this.run(row, indexed, epoch)
            .catch((e) =>
              this.o.log.warn('webhook task failed; trying again next poll', {
                webhook: row.id,
                error: e instanceof Error ? e.message : String(e),
              }),
            )
            .finally(() => {
              this.running.delete(row.id);
              if (this.running.size === this.o.settings.concurrency - 1) this.schedule(0); // a slot is free
            });
          this.running.set(row.id, task);
        }
        if (this.o.observer) this.observeLag(indexed).catch(() => undefined);
      }
    } catch (e) {
      this.o.log.warn('webhooks: reading the subscriptions failed; trying again next poll', {
        error: e instanceof Error ? e.message : String(e),
      });
    } finally {
      this.ticking = false;
      this.schedule(this.o.settings.pollMs);
    }
  }

  private async observeLag(indexed: number): Promise<void> {
    for (const c of await this.o.repository.cursors())
      this.o.observer!.webhookLag(c.id, c.state === 'active' ? Math.max(0, indexed - Number(c.cursor_height)) : 0);
  }

  /** Whether this holder may start a POST now: its lock, and a fresh renewal of its lease. */
  private holds(epoch: bigint): boolean {
    return !this.stopped && this.epoch === epoch && performance.now() < this.leaseUntil;
  }

  /** One subscription's task: its redeliveries, then its events after its cursor up to `indexed`, in order. */
  private async run(initial: WebhookRow & { redeliver: boolean }, indexed: number, epoch: bigint): Promise<void> {
    let row: WebhookRow | undefined = initial;
    for (const eventId of initial.redeliver ? await this.o.repository.redeliveries(row.id) : []) {
      if (!this.holds(epoch)) return;
      await this.redeliver(row, eventId);
    }
    if (row.state !== 'active' || (row.next_attempt_at && row.next_attempt_at.getTime() > this.now())) return;
    let cursor = cursorOf(row);
    while (this.holds(epoch) && row && row.state === 'active') {
      const { events, through } = await this.o.feed.after(row.filter, cursor, indexed);
      for (const event of events) {
        if (!this.holds(epoch)) return;
        if (event.kind === 'block' && !row.blocks) continue;
        const result = await this.post(row, event);
        await this.o.repository.logAttempt(
          row.id,
          { eventId: event.id, attempt: row.failures + 1, ...result, redelivery: false },
          this.o.settings.logKeep,
        );
        if (!result.ok) {
          this.o.observer?.webhookFailed(row.id);
          return this.failed(row, result, epoch);
        }
        this.o.observer?.webhookDelivered(row.id);
        cursor = { height: event.height, eventId: event.id };
        // each delivered event is kept at once: a kill now redelivers only the one in flight
        if (!(await this.o.repository.advance(row.id, cursor, 1, epoch))) return this.fencedOut(epoch);
        row.failures = 0;
      }
      const end: WebhookCursor = { height: through, eventId: null };
      if (through > cursor.height || (through === cursor.height && cursor.eventId !== null)) {
        if (!(await this.o.repository.advance(row.id, end, 0, epoch))) return this.fencedOut(epoch);
        cursor = end;
      }
      if (through >= indexed) return;
      row = await this.o.repository.get(row.id); // paused, deleted or rotated meanwhile (deleted: undefined, the task ends)
    }
  }

  /** `epoch` is not the stored one any more: if this process still thinks it holds under it, it gives the lock up. */
  private fencedOut(epoch: bigint): void {
    if (this.epoch !== epoch) return; // lost already (and maybe taken again, under a new epoch)
    this.o.log.warn('webhooks: fenced out (another process delivers now); giving the lock up');
    this.epoch = undefined;
    this.leaseUntil = 0;
    this.lock.relinquish();
  }

  private async failed(row: WebhookRow, result: DeliveryResult, epoch: bigint): Promise<void> {
    const s = this.o.settings;
    const failures = row.failures + 1;
    const since = row.failing_since?.getTime() ?? this.now();
    const overMs = s.retryHours * 3_600_000;
    const disable =
      this.now() - since >= overMs
        ? `disabled after failing for ${s.retryHours} h (since ${new Date(since).toISOString()}): ${result.error}`
        : undefined;
    if (disable) this.o.log.warn('webhook disabled', { webhook: row.id, reason: disable });
    await this.o.repository.failed(
      row.id,
      result.error ?? 'failed',
      backoffMs(failures, s.retryBaseMs, s.retryMaxMs),
      disable,
      epoch,
    );
  }

  private async redeliver(row: WebhookRow, eventId: string): Promise<void> {
    const event = await this.o.feed.event(row.filter, eventId);
    if (event) {
      const result = await this.post(row, event);
      await this.o.repository.logAttempt(
        row.id,
        { eventId, attempt: 1, ...result, redelivery: true },
        this.o.settings.logKeep,
      );
      if (result.ok) this.o.observer?.webhookDelivered(row.id);
      else this.o.observer?.webhookFailed(row.id);
    }
    await this.o.repository.redelivered(row.id, eventId);
  }

  private post(row: WebhookRow, event: WebhookEvent): Promise<DeliveryResult> {
    const box = this.o.box();
    const secrets = [box.open(row.secret)];
    if (row.previous_secret && row.previous_until && row.previous_until.getTime() > this.now())
      secrets.push(box.open(row.previous_secret));
    const body = deliveryBody(event);
    const timestamp = Math.floor(this.now() / 1000);
    return this.poster.post(
      new URL(row.url),
      {
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, event.id, timestamp, body),
      },
      body,
    );
  }
}

export type { WebhookFilter };
