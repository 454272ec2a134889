/**
 * A key the services act with (the lender's, the desk's): its signer, its intent log and
 * its actor lock. While this process holds the lock it is the key's only actor: it settles
 * the intents a previous holder left open, then runs the key's workers and settles open
 * intents every `reconcileMs`. Without the lock it stands by and serves reads.
 */
import type { OfflineDirectSigner } from '@cosmjs/proto-signing';
import type { ClientConfig, Pool } from 'pg';
import type { ChainClient } from './chain/chain-client';
import { ChainSigner, type GasSettings } from './chain/signer';
import { ActorLock } from './actor-lock';
import { IntentLog, type Intent, type RetrySettings } from './intents/intent-log';
import type { PartLogger } from '../src/lib/logger';

export type ActorState = 'standby' | 'recovering' | 'acting' | 'stopped';

/** A service loop that acts with the key (the lender's loan watcher, the desk's auto-accept). */
export interface ActorWorker {
  name: string;
  /** called once the lock is held and earlier intents are settled */
  start(actor: KeyActor): void;
  /** stops at once (the lock may be gone); awaited before the lock is released */
  stop(): Promise<void>;
}

export interface KeyActorOptions {
  /** the service's name for this key: lender, desk */
  role: string;
  wallet: OfflineDirectSigner;
  address: string;
  chain: ChainClient;
  pool: Pool;
  /** for the lock's own connection */
  connection: ClientConfig;
  schema: string;
  fee: { amount: { denom: string; amount: string }[]; gas: bigint };
  /** estimate each tx's gas (chain/signer.ts); without it every tx carries fee.gas */
  gas?: GasSettings;
  /** backoff of IntentLog.performRetrying */
  retry?: RetrySettings;
  /** metrics: each failed or rejected intent, and the open intents after each reconcile */
  observer?: IntentObserver;
  inclusionTimeoutMs: number;
  reconcileMs: number;
  lockRetryMs: number;
  log: PartLogger;
  workers?: ActorWorker[];
}

export interface IntentObserver {
  intentFailed(role: string, intent: Intent): void;
  openIntents(role: string, count: number): void;
}

export interface ActorStatus {
  role: string;
  address: string;
  state: ActorState;
  open_intents: number;
}

export class KeyActor {
  readonly signer: ChainSigner;
  readonly intents: IntentLog;
  private readonly lock: ActorLock;
  private stateValue: ActorState = 'standby';
  private reconcileTimer: NodeJS.Timeout | undefined;
  private openIntents = 0;
  private readonly workers: ActorWorker[];

  constructor(private readonly o: KeyActorOptions) {
    this.signer = new ChainSigner(o.chain, o.wallet, o.address, { fee: o.fee, gas: o.gas });
    this.intents = new IntentLog({
      pool: o.pool,
      schema: o.schema,
      signer: this.signer,
      inclusionTimeoutMs: o.inclusionTimeoutMs,
      retry: o.retry,
      role: o.role,
      log: o.log,
      onFailure: (intent) => o.observer?.intentFailed(o.role, intent),
      onFencedOut: (e) => {
        o.log.warn('fenced out: another process holds the key now; giving the lock up', {
          role: o.role,
          id: e.id,
          epoch: e.epoch?.toString(),
          current: e.current?.toString(),
        });
        this.lock.relinquish();
      },
    });
    this.workers = o.workers ?? [];
    this.lock = new ActorLock({
      connection: o.connection,
      address: o.address,
      schema: o.schema,
      retryMs: o.lockRetryMs,
      onAcquired: (epoch) => void this.becomeActor(epoch),
      onLost: (reason) => void this.standDown(reason),
      onError: (error) => o.log.warn('actor lock attempt failed', { role: o.role, error: String(error) }),
    });
  }

  get role(): string {
    return this.o.role;
  }

  get address(): string {
    return this.o.address;
  }

  get state(): ActorState {
    return this.stateValue;
  }

  get acting(): boolean {
    return this.stateValue === 'acting';
  }

  status(): ActorStatus {
    return { role: this.o.role, address: this.o.address, state: this.stateValue, open_intents: this.openIntents };
  }

  start(): void {
    this.o.log.info('waiting for the actor lock', { role: this.o.role, address: this.o.address });
    this.lock.start();
  }

  async stop(): Promise<void> {
    this.stateValue = 'stopped';
    clearTimeout(this.reconcileTimer);
    await Promise.all(this.workers.map((w) => w.stop().catch(() => undefined)));
    await this.lock.stop();
  }

  private async becomeActor(epoch: bigint): Promise<void> {
    this.stateValue = 'recovering';
    this.signer.resync();
    this.intents.setEpoch(epoch);
    this.o.log.info('acting for the key', { role: this.o.role, address: this.o.address, epoch: epoch.toString() });
    await this.reconcile();
    if (this.stateValue !== 'recovering') return; // lost or stopped meanwhile
    this.stateValue = 'acting';
    for (const worker of this.workers) worker.start(this);
    this.scheduleReconcile();
  }

  private async standDown(reason: string): Promise<void> {
    this.intents.setEpoch(undefined);
    if (this.stateValue === 'stopped') return;
    this.o.log.warn('stopped acting: the actor lock is lost', { role: this.o.role, reason });
    this.stateValue = 'standby';
    clearTimeout(this.reconcileTimer);
    await Promise.all(this.workers.map((w) => w.stop().catch(() => undefined)));
  }

  private scheduleReconcile(): void {
    this.reconcileTimer = setTimeout(async () => {
      await this.reconcile();
      if (this.acting) this.scheduleReconcile();
    }, this.o.reconcileMs);
  }

  private async reconcile(): Promise<void> {
    try {
      const open = await this.intents.reconcileOpen();
      this.openIntents = open.length;
      this.o.observer?.openIntents(this.o.role, open.length);
      if (open.length) this.o.log.debug('intents still open', { role: this.o.role, ids: open.map((i) => i.id) });
    } catch (e) {
      this.o.log.warn('settling open intents failed; trying again later', {
        role: this.o.role,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
}
