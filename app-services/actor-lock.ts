/**
 * One actor per key: the process that acts for a key holds a session-level PostgreSQL
 * advisory lock on it for as long as it acts. A second process behind the same load
 * balancer finds the lock taken, stays in standby (it still serves every read) and tries
 * again now and then, so it takes over within `retryMs` of the first one dying.
 *
 * The lock lives on one dedicated connection: if that connection drops, the lock is gone
 * on the server too, so `onLost` fires and the actor must stop acting at once. A process
 * can lose it without knowing (paused, partitioned): so each acquisition also bumps the
 * key's epoch in `actor_epochs`, durably, and hands it to the actor; the intent log signs
 * only while the stored epoch is still the actor's (fencing, intents/intent-log.ts).
 */
import { Client, type ClientBase, type ClientConfig } from 'pg';
import { sha256 } from '@noble/hashes/sha2';
import { utf8Encode } from '../src/lib/bytes';
import { quoteIdent } from '../src/store';

export type LockState = 'standby' | 'held' | 'stopped';

export interface ActorLockOptions {
  connection: ClientConfig;
  /** the key's address: the lock's identity */
  address: string;
  /** the app schema, where actor_epochs is */
  schema: string;
  /** how often a standby process tries again (default 5 s) */
  retryMs?: number;
  /** `epoch`: this holder's fencing epoch, higher than any earlier holder's */
  onAcquired: (epoch: bigint) => void;
  onLost: (reason: string) => void;
  onError?: (error: unknown) => void;
}

/** A signed 64-bit lock key from the address (advisory locks take one bigint). */
export function lockKey(address: string): bigint {
  const h = sha256(utf8Encode(`svc-app-services/actor/${address}`));
  return new DataView(h.buffer, h.byteOffset, 8).getBigInt64(0);
}

/**
 * Bumps `address`'s epoch and answers the new one, committed with synchronous_commit on (a
 * power cut cannot take it back, so no later holder reuses an epoch). Run it while holding
 * the key's lock.
 */
export async function claimEpoch(db: ClientBase, schema: string, address: string): Promise<bigint> {
  await db.query('BEGIN');
  try {
    await db.query('SET LOCAL synchronous_commit = on');
    const { rows } = await db.query<{ epoch: string }>(
      `INSERT INTO ${quoteIdent(schema)}.actor_epochs (address, epoch) VALUES ($1, 1)
       ON CONFLICT (address) DO UPDATE SET epoch = actor_epochs.epoch + 1 RETURNING epoch`,
      [address],
    );
    await db.query('COMMIT');
    return BigInt(rows[0].epoch);
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

export class ActorLock {
  private client: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stateValue: LockState = 'standby';
  private readonly retryMs: number;

  constructor(private readonly options: ActorLockOptions) {
    this.retryMs = options.retryMs ?? 5000;
  }

  get state(): LockState {
    return this.stateValue;
  }

  /** read through a getter: stop() may run while attempt() awaits */
  private get stopped(): boolean {
    return this.stateValue === 'stopped';
  }

  start(): void {
    void this.attempt();
  }

  async stop(): Promise<void> {
    this.stateValue = 'stopped';
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    // closing the session releases the lock on the server
    await client?.end().catch(() => undefined);
  }

  /** Gives the lock up as if its connection had dropped (onLost, then standby and retries): the actor learnt another process holds the key. */
  relinquish(): void {
    void this.client?.end().catch(() => undefined);
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const client = new Client(this.options.connection);
    client.on('error', () => undefined); // 'end' follows and reports the loss
    let epoch: bigint;
    try {
      await client.connect();
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [
        lockKey(this.options.address).toString(),
      ]);
      if (!rows[0].ok || this.stopped) {
        await client.end();
        return this.retryLater();
      }
      epoch = await claimEpoch(client, this.options.schema, this.options.address);
      if (this.stopped) return void (await client.end());
    } catch (e) {
      this.options.onError?.(e);
      await client.end().catch(() => undefined);
      return this.retryLater();
    }
    this.client = client;
    this.stateValue = 'held';
    client.once('end', () => this.lost(client));
    this.options.onAcquired(epoch);
  }

  private lost(client: Client): void {
    if (this.client !== client) return; // stopped on purpose
    this.client = undefined;
    this.stateValue = 'standby';
    this.options.onLost('the lock connection to PostgreSQL closed');
    this.retryLater();
  }

  private retryLater(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.attempt(), this.retryMs);
  }
}
