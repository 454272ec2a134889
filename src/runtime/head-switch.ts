/**
 * The node catches up with one set of flags and runs at the head with another (docs/indexer.md,
 * "Freshness at the head"): `--workers` makes node-core hand each new height to a worker as it is
 * enqueued instead of waiting for the fetch loop's 1 s sleep, but catches up ~10 % slower on 2
 * cores, and a restart costs ~10 s. So a node more than NODE_CATCH_UP_BLOCKS behind the chain's
 * tip when the launcher starts it runs with NODE_WORKERS and, once it is within
 * `switchWithin` blocks, is restarted once with NODE_HEAD_WORKERS (Supervisor.replace: the API
 * serves the committed index meanwhile); a node nearer the tip starts with NODE_HEAD_WORKERS.
 */

/** At most this near the tip the catch-up node is restarted: early enough that /ready (READY_MAX_LAG_BLOCKS, 10) comes after the restart, not before. */
export const HEAD_SWITCH_BLOCKS = 100;
/** How often the lag is read until then: at 100 blocks and 0.5 s the switch is seen up to ~200 blocks/s, 5× this project's rate. */
export const HEAD_SWITCH_POLL_MS = 500;

/** How near the tip the catch-up node is restarted with the head's flags. */
export function switchWithin(catchUpBlocks: number): number {
  return Math.min(HEAD_SWITCH_BLOCKS, catchUpBlocks);
}

/**
 * How the node starts: at the head's flags, or at the catch-up's and switched later. `indexed`:
 * the stored last processed height (undefined: nothing indexed yet, so the whole chain is to do).
 */
export function startsAtHead(o: { indexed: number | undefined; tip: number; catchUpBlocks: number }): boolean {
  return o.tip - (o.indexed ?? 0) <= o.catchUpBlocks;
}

export interface HeadWatchOptions {
  /** blocks between the chain's tip and the node's last processed height; undefined while unknown (no _metadata yet) */
  lag(): Promise<number | undefined>;
  withinBlocks: number;
  everyMs?: number;
  /** called once, the first time the lag is at most `withinBlocks` */
  onHead(lag: number): Promise<unknown>;
}

export interface HeadWatch {
  /** stops watching (an onHead under way goes on: what it started stops with its owner) */
  stop(): void;
  /** resolves once onHead has been called and has finished (never, if stopped first) */
  readonly reached: Promise<void>;
}

export function watchForHead(o: HeadWatchOptions): HeadWatch {
  const within = o.withinBlocks;
  const every = o.everyMs ?? HEAD_SWITCH_POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let reach: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const check = async (): Promise<void> => {
    const lag = await o.lag().catch(() => undefined); // a failed read is tried again
    if (stopped) return;
    if (lag !== undefined && lag <= within) {
      await o.onHead(lag).catch(() => undefined); // onHead says itself what went wrong
      reach();
      return;
    }
    schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void check(), every);
  };
  schedule();
  return {
    reached,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
