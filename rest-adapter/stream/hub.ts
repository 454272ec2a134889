/**
 * One source for every subscriber of one adapter process. The app's HeightWatcher (the
 * response cache's poll) says when the indexed height moves; the hub then reads the new
 * heights once (one block read, and one read per distinct filter among the open streams)
 * and fans the events out to every connection with that filter, height after height in
 * chain order. A height is read only once the watcher has seen it committed, so no stream
 * ever gets half a block.
 *
 * A connection joins the hub only after it has replayed from the store up to `delivered`
 * while the hub was idle (route.ts): from then on every batch covers it, so the switch from
 * replay to live has no gap and no duplicate.
 *
 * Once a second (while streams are open) the hub sends heartbeats and ends the streams of
 * a server that stopped listening, so `server.close()` is never held by a stream.
 */
import { detached } from '../../src/http/cancel-on-disconnect';
import type { Logger } from '../../src/lib/logger';
import type { Server } from 'net';
import type { HeightWatcher } from '../http/height-watcher';
import type { StreamConnection } from './connection';
import type { StreamEvent } from './events';
import { filterKey, type StreamFilter } from './filter';
import { HEIGHTS_PER_READ, mergeInOrder, type StreamSource } from './source';

interface Group {
  filter: StreamFilter;
  connections: Set<StreamConnection>;
}

/** The housekeeping period: heartbeats are checked and stopped servers noticed this often. */
const TICK_MS = 1000;

export class StreamHub {
  /** every height up to this has been sent to every joined connection */
  private delivered: number | undefined;
  /** the highest committed height the watcher has shown */
  private target = 0;
  /** bumped on a rewind: a batch of an older generation must not move `delivered` */
  private generation = 0;
  private running: Promise<void> | undefined;
  private readonly groups = new Map<string, Group>();
  private readonly open = new Map<StreamConnection, Server | undefined>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly watcher: HeightWatcher,
    private readonly source: StreamSource,
    private readonly options: { heartbeatMs: number },
    private readonly logger: Pick<Logger, 'error'>,
  ) {
    watcher.onChange((height) => this.onHeight(height));
  }

  /**
   * The height every joined connection has been sent through; reads the height first when
   * the watcher has none yet. Undefined when the store cannot tell it.
   */
  async deliveredHeight(): Promise<number | undefined> {
    this.watcher.start();
    if (this.watcher.current === undefined) await this.watcher.poll();
    // the hub's batches serve every stream: never run in the scope of the request that asked first
    if (this.delivered === undefined && this.watcher.current !== undefined)
      detached(() => this.onHeight(this.watcher.current));
    return this.delivered;
  }

  /** Resolves when no batch is being read or sent. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** An open stream (replaying or live), for heartbeats and shutdown; `server` is the one it came in on. */
  register(connection: StreamConnection, server: Server | undefined): void {
    this.open.set(connection, server);
    if (!this.timer)
      detached(() => {
        this.timer = setInterval(() => this.tick(), Math.min(TICK_MS, this.options.heartbeatMs));
        this.timer.unref();
      });
  }

  /** Joins a replayed connection to the live batches. Only when idle and it has everything through `deliveredHeight`. */
  join(connection: StreamConnection): void {
    if (this.running) throw new Error('StreamHub.join while a batch runs');
    const key = filterKey(connection.filter);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { filter: connection.filter, connections: new Set() }));
    group.connections.add(connection);
  }

  /** Forgets a connection (its response closed). */
  remove(connection: StreamConnection): void {
    this.open.delete(connection);
    const key = filterKey(connection.filter);
    const group = this.groups.get(key);
    group?.connections.delete(connection);
    if (group && group.connections.size === 0) this.groups.delete(key);
    if (this.open.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Closes every open stream (its app is being replaced); each client resumes from its Last-Event-ID. */
  closeAll(message: string): void {
    for (const connection of [...this.open.keys()]) connection.close('shutting_down', message);
  }

  /** How many connections share each filter's read (tests, metrics). */
  get readsPerBatch(): number {
    return this.groups.size;
  }

  private onHeight(height: number | undefined): void {
    if (height === undefined) return; // unknown for now: wait for the next poll
    if (this.delivered === undefined) {
      this.delivered = this.target = height; // nobody has joined yet: nothing to send
      return;
    }
    if (height < this.delivered) return this.rewind(height);
    this.target = Math.max(this.target, height);
    this.kick();
  }

  /** The store went back (reindexed): what was sent may not hold any more. */
  private rewind(height: number): void {
    this.generation++;
    this.delivered = this.target = height;
    for (const connection of this.open.keys())
      connection.close('resync', 'the store was rewound; re-read from the list endpoints and reconnect without an id');
  }

  private kick(): void {
    if (this.running || this.delivered === undefined || this.delivered >= this.target) return;
    this.running = this.deliverAll().finally(() => {
      this.running = undefined;
    });
  }

  private async deliverAll(): Promise<void> {
    try {
      while (this.delivered !== undefined && this.delivered < this.target) {
        const generation = this.generation;
        const after = this.delivered;
        const through = Math.min(this.target, after + HEIGHTS_PER_READ);
        await this.deliver(after, through);
        if (generation !== this.generation) return;
        this.delivered = through;
      }
    } catch (e) {
      // kept undelivered: the next height or tick tries again from the same place
      this.logger.error('stream: reading new heights failed', { error: e });
    }
  }

  /**
   * Reads after < height <= through once per distinct filter and sends it to each connection.
   * A filter whose read fails ends its own streams (they resume from their ids), so one bad
   * read never holds the others back; a failed block read is retried for everyone.
   */
  private async deliver(after: number, through: number): Promise<void> {
    const groups = [...this.groups.values()];
    if (groups.length === 0) return;
    const [blocks, ...perGroup] = await Promise.all([
      this.source.blocks(after, through),
      ...groups.map((g) => this.source.filtered(g.filter, after, through).catch((e: unknown) => e as Error)),
    ]);
    groups.forEach((group, i) => {
      const read = perGroup[i];
      if (read instanceof Error) return this.fail(group, read);
      const events: StreamEvent[] = mergeInOrder(blocks, read);
      for (const connection of group.connections) connection.send(events, through);
    });
  }

  private fail(group: Group, error: Error): void {
    this.logger.error(`stream: reading ${filterKey(group.filter)} failed`, { error });
    for (const connection of group.connections)
      connection.close('unavailable', 'the store could not be read; reconnect with Last-Event-ID to resume');
  }

  private tick(): void {
    const now = Date.now();
    for (const [connection, server] of this.open) {
      if (server && !server.listening)
        connection.close('shutting_down', 'the server is shutting down; reconnect with Last-Event-ID to resume');
      else connection.heartbeat(now, this.options.heartbeatMs);
    }
    this.kick(); // after a failed read
  }
}
