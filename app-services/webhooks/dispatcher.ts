/**
 * The webhooks' deliverer. One process at a time delivers (the `webhooks` actor lock,
 * actor-lock.ts, with its fencing epoch); the others stand by and serve /api/webhooks. While it
 * holds the lock it looks every `pollMs` at the indexed height and at the subscriptions due. Each
 * due subscription has one long-lived task (kept across heights, woken when the indexed height
 * moves, so nothing is re-scheduled per height): its events after its cursor, read from the index
 * (WebhookFeed) once per (filter, cursor, height) for every task that asks the same, POSTed one
 * after the other, one in flight. Each POST first waits for a turn of its target (host and port:
 * at most `targetShare` at once, so waiting for a busy target holds no slot and runs down no
 * timeout), then takes one of `concurrency` slots, and its timeout starts with the POST. A 2xx moves the
 * cursor in PostgreSQL past the event, with its log row, in a group commit (one statement for the
 * advances of every subscription that delivered meanwhile); the task waits for that commit before
 * its next POST. Anything else ends the task, and the subscription is tried again after an
 * exponential backoff with jitter, from the same event, until it has failed for
 * WEBHOOK_RETRY_HOURS: then it is disabled with the reason. Subscriptions that are failing, and
 * those of a target whose last delivery took more than half the timeout (slow, or newly dead),
 * hold at most a quarter of the slots, so a crowd of dead or slow targets cannot starve the
 * healthy ones (docs/webhooks.md, "Slow and dead targets"). A kill at
 * any moment so loses nothing: the next holder starts from the stored cursors and at most
 * redelivers the events that were in flight.
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
import { isUndefinedTable } from '../../src/store';
import type { WebhookCursor, WebhookEvent, WebhookFeed, WebhookFilter } from './feed';
import { cursorOf, WEBHOOKS_ACTOR, type AdvanceItem, type WebhookRepository, type WebhookRow } from './repository';
import { signatureHeader, type SecretBox } from './secrets';
import { Poster, type DeliveryResult, type Resolver } from './target';

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
  /** where target hosts are resolved at each delivery (the system's DNS unless given) */
  resolve?: Resolver;
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

/** Where a deliverer's time goes (bench:webhooks prints it): counts and summed milliseconds since start. */
export interface WebhookProfile {
  ticks: number;
  tickMs: number;
  feedReads: number;
  feedReadMs: number;
  /** reads answered by one already made for the same filter, cursor and height */
  feedReadsShared: number;
  posts: number;
  postMs: number;
  /** time tasks waited for a delivery slot (their target's turn and the failing quarter included) */
  slotWaitMs: number;
  /** POSTs that found every one of the `concurrency` slots taken and waited for one */
  slotWaits: number;
  commits: number;
  commitItems: number;
  commitMs: number;
  /** time tasks waited for their group commit (queue and statement) */
  commitWaitMs: number;
  failedWrites: number;
  tasksStarted: number;
}

export const emptyProfile = (): WebhookProfile => ({
  ticks: 0,
  tickMs: 0,
  feedReads: 0,
  feedReadMs: 0,
  feedReadsShared: 0,
  posts: 0,
  postMs: 0,
  slotWaitMs: 0,
  slotWaits: 0,
  commits: 0,
  commitItems: 0,
  commitMs: 0,
  commitWaitMs: 0,
  failedWrites: 0,
  tasksStarted: 0,
});

/** A counting semaphore: at most `size` holders, the others wait in arrival order. */
export class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** slots a take() would get at once */
  get free(): number {
    return this.size - this.used;
  }

  /** nobody holds or waits for a slot */
  get idle(): boolean {
    return this.used === 0;
  }

  async take(): Promise<() => void> {
    if (this.used < this.size) this.used++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the releaser hands its slot over
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.used--;
    };
  }
}

/**
 * The group commit: the advances queued while one statement runs go together in the next one.
 * Each caller waits for the statement that holds its advance, so a cursor is in PostgreSQL before
 * its subscription's next POST (a kill redelivers at most the one in flight).
 */
export type Committed = 'moved' | 'fenced' | 'kept';

export class Committer {
  private queue: { item: AdvanceItem; epoch: bigint; done: (r: Committed) => void; fail: (e: unknown) => void }[] = [];
  private flushing = false;

  constructor(
    private readonly write: (items: AdvanceItem[], epoch: bigint) => Promise<{ holds: boolean; moved: Set<string> }>,
    private readonly profile: WebhookProfile,
  ) {}

  /** 'kept': not moved (the subscription was deleted, or its cursor changed under the deliverer) */
  advance(item: AdvanceItem, epoch: bigint): Promise<Committed> {
    return new Promise((done, fail) => {
      this.queue.push({ item, epoch, done, fail });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        // one epoch per statement: the advances of a holding that ended wait for their own (and are fenced out)
        const epoch = this.queue[0].epoch;
        const batch = this.queue.filter((b) => b.epoch === epoch);
        this.queue = this.queue.filter((b) => b.epoch !== epoch);
        const t0 = performance.now();
        try {
          const { holds, moved } = await this.write(
            batch.map((b) => b.item),
            epoch,
          );
          for (const b of batch) b.done(!holds ? 'fenced' : moved.has(b.item.id) ? 'moved' : 'kept');
        } catch (e) {
          for (const b of batch) b.fail(e);
        }
        this.profile.commits++;
        this.profile.commitItems += batch.length;
        this.profile.commitMs += performance.now() - t0;
      }
    } finally {
      this.flushing = false;
    }
  }
}

type DueRow = WebhookRow & { redeliver: boolean };

/** A subscription's long-lived task: its row as last read, and how to wake it. */
interface Task {
  row: DueRow;
  /** asked to end (paused, deleted, in backoff, changed under it): after its in-flight POST */
  stop: boolean;
  /** waiting for a new height with every event up to the last one committed */
  idle: boolean;
  /** the cursor stored in PostgreSQL by this task (or read at its start) */
  cursor: WebhookCursor;
  /** the holding (fencing epoch) it delivers under */
  epoch: bigint;
  /** its last few stored cursors: a poll's read of the row may show one of them (read before a commit) */
  recent: string[];
  wake: () => void;
}

/** A target (host and port) as the deliverer sees it: its turns, and whether its last delivery was slow. */
interface Target {
  turns: Slots;
  /** its last delivery took more than half of WEBHOOK_TIMEOUT_MS (a timeout included) */
  slow: boolean;
}

/**
 * The most of the slots one target holds: its WEBHOOK_PER_TARGET connections, and at most half
 * of the slots, so one target, however many subscriptions it has, leaves the other half free.
 */
export const targetShare = (s: Pick<WebhookSettings, 'concurrency' | 'perTarget'>): number =>
  Math.max(1, Math.min(s.perTarget, Math.ceil(s.concurrency / 2)));

const targetKey = (url: URL) => `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;

/**
 * The targets by host and port. A target is kept while a delivery holds or waits for its turn,
 * and after it while its last answer was slow (so its next delivery still takes the slow
 * targets' quarter); an idle target that answered in time is forgotten. So the map holds the
 * targets in use and the slow ones, not every host a subscription ever named.
 */
export class Targets {
  private readonly byKey = new Map<string, Target>();

  constructor(private readonly share: number) {}

  get size(): number {
    return this.byKey.size;
  }

  /** a turn of the URL's target; waiting for it holds nothing else */
  async turn(url: URL): Promise<{ target: Target; release: () => void }> {
    const key = targetKey(url);
    const target = this.byKey.get(key) ?? { turns: new Slots(this.share), slow: false };
    this.byKey.set(key, target); // take() below counts its holder before any other delivery runs
    const done = await target.turns.take();
    return {
      target,
      release: () => {
        done();
        if (target.turns.idle && !target.slow) this.byKey.delete(key);
      },
    };
  }
}

const cursorKey = (c: WebhookCursor) => `${c.height}/${c.eventId ?? ''}`;
const RECENT_CURSORS = 8;

export class WebhookDispatcher {
  private readonly lock: ActorLock;
  private readonly poster: Poster;
  private epoch: bigint | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly tasks = new Map<string, Task>();
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
  /** the indexed height the tasks deliver up to (the last tick's) */
  private indexed: number | undefined;
  /** the feed reads of the current height, shared by every task asking for the same filter and cursor */
  private reads = new Map<string, Promise<{ events: WebhookEvent[]; through: number }>>();
  private readonly slots: Slots;
  /** taken before a slot by a subscription that is failing or whose target is slow: at most a quarter of the slots */
  private readonly retrySlots: Slots;
  private readonly targets: Targets;
  private readonly committer: Committer;
  readonly profile: WebhookProfile = emptyProfile();

  constructor(private readonly o: DispatcherOptions) {
    this.now = o.now ?? Date.now;
    this.leaseMs = Math.max(1000, 5 * o.settings.pollMs);
    this.slots = new Slots(o.settings.concurrency);
    this.retrySlots = new Slots(Math.max(1, Math.floor(o.settings.concurrency / 4)));
    this.targets = new Targets(targetShare(o.settings));
    this.committer = new Committer(
      (items, epoch) => o.repository.advanceMany(items, epoch, o.settings.logKeep),
      this.profile,
    );
    this.poster = new Poster({
      timeoutMs: o.settings.timeoutMs,
      allowPrivate: o.settings.allowPrivate,
      perTarget: o.settings.perTarget,
      resolve: o.resolve,
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
        this.wakeAll();
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
    this.wakeAll();
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

  private wakeAll(): void {
    for (const t of this.tasks.values()) t.wake();
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

  /**
   * Each poll: the lease renewed, the indexed height read (a new one wakes every idle task), the
   * due subscriptions read: a task started for each that has none, each running task given its
   * fresh row (secret, target, filter, a redelivery asked for), told to end when it is no longer due.
   */
  private async tick(): Promise<void> {
    const epoch = this.epoch;
    if (epoch === undefined || this.stopped) return;
    const early = this.startAt - performance.now();
    if (early > 0) return this.schedule(early); // a wake of the previous holding: not yet
    this.ticking = true;
    const t0 = performance.now();
    try {
      const renewing = performance.now();
      if (!(await this.o.repository.renewLease(epoch, this.leaseMs))) return this.fencedOut(epoch);
      if (this.epoch === epoch) this.leaseUntil = renewing + this.leaseMs;
      const indexed = await this.o.feed.indexedHeight();
      if (indexed !== undefined) {
        const moved = indexed !== this.indexed;
        if (moved) {
          this.indexed = indexed;
          this.reads = new Map(); // the reads of the last height: no task asks for them again
        }
        const due = await this.o.repository.due();
        const dueIds = new Set<string>();
        for (const row of due) {
          dueIds.add(row.id);
          const task = this.tasks.get(row.id);
          if (task) {
            task.row = row;
            // changed under the task while it had nothing in flight (a pause and a resume from
            // another event between two polls): it ends, the next poll starts one from the stored cursor
            if (task.idle && !task.recent.includes(cursorKey(cursorOf(row)))) task.stop = true;
            if (moved || row.redeliver || task.stop) task.wake();
            continue;
          }
          if (this.running.has(row.id)) continue; // an ending task not yet ended
          const behind = Number(row.cursor_height) < indexed || row.cursor_event !== null;
          if (!behind && !row.redeliver) continue;
          this.startTask(row, epoch);
        }
        for (const [id, task] of this.tasks)
          if (!dueIds.has(id)) {
            task.stop = true; // paused, deleted, disabled or in backoff
            task.wake();
          }
        if (this.o.observer) this.observeLag(indexed).catch(() => undefined);
      }
    } catch (e) {
      // before the node's first block its tables do not exist: waiting, not a fault (as polling-worker.ts)
      const level = isUndefinedTable(e) ? 'debug' : 'warn';
      this.o.log[level]('webhooks: reading the subscriptions failed; trying again next poll', {
        error: e instanceof Error ? e.message : String(e),
      });
    } finally {
      this.ticking = false;
      this.profile.ticks++;
      this.profile.tickMs += performance.now() - t0;
      this.schedule(this.o.settings.pollMs);
    }
  }

  private startTask(row: DueRow, epoch: bigint): void {
    let wakeUp: (() => void) | undefined;
    const task: Task = {
      row,
      stop: false,
      idle: false,
      epoch,
      cursor: cursorOf(row),
      recent: [cursorKey(cursorOf(row))],
      wake: () => {
        const w = wakeUp;
        wakeUp = undefined;
        w?.();
      },
    };
    const sleep = () => new Promise<void>((resolve) => (wakeUp = resolve));
    this.tasks.set(row.id, task);
    this.profile.tasksStarted++;
    const run = this.run(task, epoch, sleep)
      .catch((e) =>
        this.o.log.warn('webhook task failed; trying again next poll', {
          webhook: row.id,
          error: e instanceof Error ? e.message : String(e),
        }),
      )
      .finally(() => {
        this.tasks.delete(row.id);
        this.running.delete(row.id);
      });
    this.running.set(row.id, run);
  }

  private async observeLag(indexed: number): Promise<void> {
    for (const c of await this.o.repository.cursors())
      this.o.observer!.webhookLag(c.id, c.state === 'active' ? Math.max(0, indexed - Number(c.cursor_height)) : 0);
  }

  /** Whether this holder may start a POST now: its lock, and a fresh renewal of its lease. */
  private holds(epoch: bigint): boolean {
    return !this.stopped && this.epoch === epoch && performance.now() < this.leaseUntil;
  }

  /** The events after `cursor` up to `indexed`, read once for every task asking the same at this height. */
  private read(filter: WebhookFilter, cursor: WebhookCursor, indexed: number) {
    const key = `${JSON.stringify(filter)}|${cursor.height}|${cursor.eventId ?? ''}|${indexed}`;
    const shared = this.reads.get(key);
    if (shared) {
      this.profile.feedReadsShared++;
      return shared;
    }
    const t0 = performance.now();
    const reading = this.o.feed.after(filter, cursor, indexed).finally(() => {
      this.profile.feedReads++;
      this.profile.feedReadMs += performance.now() - t0;
    });
    reading.catch(() => this.reads.delete(key)); // a failed read is not shared: the next asker reads again
    if (indexed === this.indexed) this.reads.set(key, reading);
    return reading;
  }

  /**
   * One subscription's task, kept while it is due: its redeliveries, then its events after its
   * cursor up to the indexed height, in order, one in flight; then it sleeps until the next height.
   * A failure ends it (the subscription is in backoff, a later poll starts a new task).
   */
  private async run(task: Task, epoch: bigint, sleep: () => Promise<void>): Promise<void> {
    while (!task.stop && this.holds(epoch)) {
      const row = task.row;
      if (row.redeliver) {
        row.redeliver = false;
        for (const eventId of await this.o.repository.redeliveries(row.id)) {
          if (!this.holds(epoch)) return;
          await this.redeliver(row, eventId);
        }
      }
      if (row.state !== 'active' || (row.next_attempt_at && row.next_attempt_at.getTime() > this.now())) return;
      const indexed = this.indexed;
      let cursor = task.cursor;
      if (indexed !== undefined && (cursor.height < indexed || cursor.eventId !== null)) {
        const { events, through } = await this.read(row.filter, cursor, indexed);
        const wanted = events.filter((e) => e.kind !== 'block' || row.blocks);
        for (let i = 0; i < wanted.length; i++) {
          if (task.stop || !this.holds(epoch)) return;
          const event = wanted[i];
          const result = await this.post(task.row, event, row.failures > 0);
          if (!result.ok) {
            this.o.observer?.webhookFailed(row.id);
            return this.failed(row, event, result, epoch);
          }
          this.o.observer?.webhookDelivered(row.id);
          // the last event wanted of the read: every event up to `through` is then delivered, the
          // cursor goes past the height at once (one commit instead of two)
          cursor =
            i === wanted.length - 1 ? { height: through, eventId: null } : { height: event.height, eventId: event.id };
          const committed = await this.advance(task, cursor, 1, {
            eventId: event.id,
            attempt: row.failures + 1,
            ...result,
          });
          if (committed !== 'moved') return this.ended(committed, epoch);
          task.cursor = cursor;
          row.failures = 0;
        }
        const end: WebhookCursor = { height: through, eventId: null };
        if (through > cursor.height || (through === cursor.height && cursor.eventId !== null)) {
          const committed = await this.advance(task, end, 0);
          if (committed !== 'moved') return this.ended(committed, epoch);
          task.cursor = end;
        }
        if (through < indexed) continue; // more heights to read
        if (indexed !== this.indexed) continue; // a new height came meanwhile
      }
      // asked to end (or the lock lost) while it delivered: a wake then found it busy, none may come again
      if (task.stop || !this.holds(epoch)) return;
      task.idle = true;
      await sleep();
      task.idle = false;
    }
  }

  /** A task's advance not made: fenced out (this process gives the lock up), or kept (the task just ends). */
  private ended(committed: Committed, epoch: bigint): void {
    if (committed === 'fenced') this.fencedOut(epoch);
  }

  private async advance(
    task: Task,
    cursor: WebhookCursor,
    delivered: number,
    log?: AdvanceItem['log'],
  ): Promise<Committed> {
    const t0 = performance.now();
    try {
      const committed = await this.committer.advance(
        { id: task.row.id, from: task.cursor, cursor, delivered, log },
        task.epoch,
      );
      if (committed === 'moved') task.recent = [cursorKey(cursor), ...task.recent].slice(0, RECENT_CURSORS);
      return committed;
    } finally {
      this.profile.commitWaitMs += performance.now() - t0;
    }
  }

  /** `epoch` is not the stored one any more: if this process still thinks it holds under it, it gives the lock up. */
  private fencedOut(epoch: bigint): void {
    if (this.epoch !== epoch) return; // lost already (and maybe taken again, under a new epoch)
    this.o.log.warn('webhooks: fenced out (another process delivers now); giving the lock up');
    this.epoch = undefined;
    this.leaseUntil = 0;
    this.wakeAll();
    this.lock.relinquish();
  }

  private async failed(row: WebhookRow, event: WebhookEvent, result: DeliveryResult, epoch: bigint): Promise<void> {
    const s = this.o.settings;
    const failures = row.failures + 1;
    const since = row.failing_since?.getTime() ?? this.now();
    const overMs = s.retryHours * 3_600_000;
    const disable =
      this.now() - since >= overMs
        ? `disabled after failing for ${s.retryHours} h (since ${new Date(since).toISOString()}): ${result.error}`
        : undefined;
    if (disable) this.o.log.warn('webhook disabled', { webhook: row.id, reason: disable });
    this.profile.failedWrites++;
    await this.o.repository.failedWithLog(
      row.id,
      { eventId: event.id, attempt: failures, status: result.status, latencyMs: result.latencyMs, error: result.error },
      backoffMs(failures, s.retryBaseMs, s.retryMaxMs),
      disable,
      epoch,
      s.logKeep,
    );
  }

  private async redeliver(row: WebhookRow, eventId: string): Promise<void> {
    const event = await this.o.feed.event(row.filter, eventId);
    if (event) {
      const result = await this.post(row, event, false);
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

  /**
   * One POST: its target's turn first (waiting for it holds no slot), then, for a failing
   * subscription or a slow target, one of the quarter kept for them, then a slot. The POST (and
   * its timeout) starts once it has all three: the target has a connection free for it.
   */
  private async post(row: WebhookRow, event: WebhookEvent, failing: boolean): Promise<DeliveryResult> {
    const t0 = performance.now();
    const url = new URL(row.url);
    const { target, release: turn } = await this.targets.turn(url);
    const retrySlot = failing || target.slow ? await this.retrySlots.take() : undefined;
    if (!this.slots.free) this.profile.slotWaits++;
    const slot = await this.slots.take();
    const t1 = performance.now();
    this.profile.slotWaitMs += t1 - t0;
    try {
      const box = this.o.box();
      const secrets = [box.open(row.secret)];
      if (row.previous_secret && row.previous_until && row.previous_until.getTime() > this.now())
        secrets.push(box.open(row.previous_secret));
      const body = deliveryBody(event);
      const timestamp = Math.floor(this.now() / 1000);
      const result = await this.poster.post(
        url,
        {
          'webhook-id': event.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, event.id, timestamp, body),
        },
        body,
      );
      target.slow = result.latencyMs > this.o.settings.timeoutMs / 2;
      return result;
    } finally {
      slot();
      retrySlot?.();
      turn();
      this.profile.posts++;
      this.profile.postMs += performance.now() - t1;
    }
  }
}

export type { WebhookFilter };
