/**
 * The loop a service worker runs while its key's actor acts: its steps in order, every
 * `pollMs`, each step's failure logged and left to the next pass; and at once when wake() says
 * something arrived (a committed block with a pledge or a proposal for it). Chain actions go
 * through act(), which leaves an action still open (a timeout, a sequence gap) to the next pass.
 */
import type { ActorWorker, KeyActor } from './actor';
import type { Intent, IntentRequest } from './intents/intent-log';
import type { PoolSales } from './store/pool-sales';
import type { PartLogger } from '../src/lib/logger';
import { isUndefinedTable } from '../src/store';

export type Step = readonly [name: string, run: () => Promise<void>];

export abstract class PollingWorker implements ActorWorker {
  abstract readonly name: string;
  private actorValue: KeyActor | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;
  /** a pass is under way */
  private busy = false;
  /** woken during a pass: run another as soon as it ends */
  private again = false;

  constructor(
    private readonly pollMs: number,
    protected readonly log: PartLogger,
  ) {}

  /** The steps of one pass, in order. */
  protected abstract steps(): Step[];

  /** The actor while this worker runs. */
  get acting(): KeyActor | undefined {
    return this.stopped ? undefined : this.actorValue;
  }

  protected get actor(): KeyActor {
    return this.actorValue!;
  }

  start(actor: KeyActor): void {
    this.actorValue = actor;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** A pass now (or right after the one under way) rather than at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.busy = true;
      this.again = false;
      this.running = this.tick().finally(() => {
        this.busy = false;
        if (!this.stopped) this.schedule(this.again ? 0 : this.pollMs);
      });
    }, ms);
  }

  /** One pass. */
  async tick(): Promise<void> {
    for (const [name, run] of this.steps()) {
      if (this.stopped) return;
      try {
        await run();
      } catch (e) {
        const level = isUndefinedTable(e) ? 'debug' : 'warn';
        this.log[level](`${this.name}: ${name} failed; trying again next pass`, {
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }

  /** perform() that leaves an action still open for the next pass (null). */
  protected act(request: IntentRequest): Promise<Intent | null> {
    return this.openToNull(request, () => this.actor.intents.perform(request));
  }

  /**
   * performRetrying() (intents/intent-log.ts) for an action that must eventually happen:
   * call it every pass while the action is still needed. Null while an attempt is open;
   * else the latest attempt (committed: done; failed/rejected: the next is made after the
   * backoff).
   */
  protected actRetrying(request: IntentRequest): Promise<Intent | null> {
    return this.openToNull(request, () => this.actor.intents.performRetrying(request));
  }

  /** Settles a recorded pool sale (store/pool-sales.ts) from this actor's intent and its tx. */
  protected settleSale(sales: PoolSales, ref: string): Promise<void> {
    return sales.settle(ref, this.actor.intents, (hash) => this.actor.signer.chainClient.findTx(hash));
  }

  /** Settles every pool sale recorded and not yet settled (a crash between sign and record leaves one). */
  protected async settleSales(sales: PoolSales): Promise<void> {
    for (const ref of await sales.inFlight()) await this.settleSale(sales, ref);
  }

  private async openToNull(request: IntentRequest, run: () => Promise<Intent>): Promise<Intent | null> {
    try {
      return await run();
    } catch (e) {
      this.log.debug(`${this.name}: action still open`, {
        id: request.id,
        error: e instanceof Error ? e.message : String(e),
      });
      return null;
    }
  }
}
