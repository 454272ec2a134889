/**
 * Keeps one child part running (the SubQuery node): when it dies on its own it is started
 * again after a backoff (initialMs, doubled per restart up to maxMs), and the rest of the
 * product goes on serving from the last committed state meanwhile. More than `maxRestarts`
 * unexpected exits within `windowMs` means something is wrong that a restart does not fix:
 * the supervisor gives up and says why (npm start then stops with exit code 1).
 */
import type { Logger } from './logger';

export interface SupervisedChild {
  stop(): Promise<void>;
}

export interface SupervisorOptions {
  /** what the child is, for messages ("the SubQuery node") */
  name: string;
  /** starts the child; `onExit` is to be called once if it exits on its own */
  start(onExit: (reason: string) => void): Promise<SupervisedChild>;
  initialBackoffMs: number;
  maxBackoffMs: number;
  maxRestarts: number;
  windowMs: number;
  log: Logger;
  /** after each restart that succeeded, with the number of restarts so far */
  onRestart?: (restarts: number) => void;
  /** the supervisor stopped restarting: the message says why */
  onGiveUp: (message: string) => void;
}

export type SupervisorState = 'starting' | 'running' | 'replacing' | 'restarting' | 'stopped' | 'failed';

export const SUPERVISOR_DEFAULTS = {
  initialBackoffMs: 1000,
  maxBackoffMs: 30_000,
  maxRestarts: 5,
  windowMs: 600_000,
} as const;

export class Supervisor {
  private child: SupervisedChild | undefined;
  private exits: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private restartsTotal = 0;
  private lastExit = '';
  private replacing: Promise<boolean> | undefined;
  private generation = 0;
  state: SupervisorState = 'starting';

  constructor(private readonly o: SupervisorOptions) {}

  get restarts(): number {
    return this.restartsTotal;
  }

  /** The first start: a failure here is the caller's (a child that cannot start at all is not restarted). */
  async start(): Promise<void> {
    this.child = await this.startChild();
    this.state = 'running';
  }

  /**
   * A planned restart (the node started again with its head flags): the running child is
   * stopped and `start` called again. Not an exit: no backoff, not counted toward giving up, not
   * a restart in `restarts`, and not "down" for /ready (the rest of the product serves the last
   * committed state meanwhile, and /ready's lag check still applies). False when there was
   * nothing to replace (not running, stopping) or the new start failed (which then counts as
   * an exit, restarted as any other).
   */
  replace(why: string): Promise<boolean> {
    if (this.state !== 'running' || !this.child || this.stopping || this.replacing) return Promise.resolve(false);
    const old = this.child;
    this.child = undefined;
    this.generation += 1; // the old child's exit is ours now
    this.state = 'replacing';
    this.o.log.info(`restarting ${this.o.name}: ${why}`);
    this.replacing = (async () => {
      try {
        await old.stop();
        if (this.stopping) return false;
        const child = await this.startChild();
        if (this.stopping) {
          await child.stop();
          return false;
        }
        this.child = child;
        this.state = 'running';
        return true;
      } catch (e) {
        this.state = 'running'; // so that exited() treats it as any other exit
        this.exited(
          `start after a planned restart failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
        );
        return false;
      } finally {
        this.replacing = undefined;
      }
    })();
    return this.replacing;
  }

  /** Null while running (or replaced on purpose); otherwise why the part is not there (for /ready). */
  notRunningReason(): string | null {
    if (this.state === 'running' || this.state === 'replacing') return null;
    if (this.state === 'restarting')
      return `${this.o.name} is restarting after it exited (${this.lastExit}); restart ${this.restartsTotal + 1}`;
    if (this.state === 'failed') return `${this.o.name} stopped for good: ${this.lastExit}`;
    return `${this.o.name} is ${this.state}`;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.replacing; // a replacement under way stops what it started
    if (this.state !== 'failed') this.state = 'stopped';
    const child = this.child;
    this.child = undefined;
    await child?.stop();
  }

  /** Starts a child whose exit counts only while it is the current one (not one replaced on purpose). */
  private startChild(): Promise<SupervisedChild> {
    const generation = ++this.generation;
    return this.o.start((reason) => {
      if (generation === this.generation) this.exited(reason);
    });
  }

  private exited(reason: string): void {
    if (this.stopping) return;
    this.child = undefined;
    this.lastExit = reason;
    const now = Date.now();
    this.exits = [...this.exits.filter((t) => now - t < this.o.windowMs), now];
    if (this.exits.length > this.o.maxRestarts) {
      this.state = 'failed';
      this.o.onGiveUp(
        `${this.o.name} exited ${this.exits.length} times within ${Math.round(this.o.windowMs / 1000)} s (last: ${reason}); not restarting it again`,
      );
      return;
    }
    this.state = 'restarting';
    const backoff = Math.min(this.o.initialBackoffMs * 2 ** (this.exits.length - 1), this.o.maxBackoffMs);
    this.o.log.warn(`${this.o.name} exited unexpectedly; restarting it`, {
      reason,
      backoff_ms: backoff,
      exits_in_window: this.exits.length,
      max: this.o.maxRestarts,
    });
    this.timer = setTimeout(() => void this.restart(), backoff);
  }

  private async restart(): Promise<void> {
    if (this.stopping) return;
    try {
      const child = await this.startChild();
      if (this.stopping) {
        await child.stop();
        return;
      }
      this.child = child;
      this.state = 'running';
      this.restartsTotal += 1;
      this.o.log.info(`${this.o.name} restarted`, { restarts: this.restartsTotal });
      this.o.onRestart?.(this.restartsTotal);
    } catch (e) {
      // a start that fails counts as one more exit (and so toward giving up)
      this.exited(`restart failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
}
