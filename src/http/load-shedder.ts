/**
 * How long work waits for the CPU: the event loop's delay (perf_hooks), averaged over short
 * windows. Above the threshold the process is overloaded: a request would queue behind others
 * longer than it is worth, so the fair share answers 503 with Retry-After to the clients that
 * are spending their budget fastest, instead of letting everyone's latency grow without end.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'perf_hooks';

const WINDOW_MS = 250;

export class LoadShedder {
  private readonly histogram: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  private delayMs = 0;

  /** `thresholdMs` 0: never overloaded (nothing is measured). */
  constructor(readonly thresholdMs: number) {
    this.histogram = monitorEventLoopDelay({ resolution: 10 });
    this.timer = setInterval(() => this.sample(), WINDOW_MS);
    this.timer.unref();
    if (thresholdMs > 0) this.histogram.enable();
  }

  private sample(): void {
    if (this.thresholdMs <= 0) return;
    // the mean delay of a timer over the last window: how long a ready callback waited for the loop
    const mean = this.histogram.count > 0 ? this.histogram.mean / 1e6 : 0;
    this.histogram.reset();
    this.delayMs = mean;
  }

  /** The event-loop delay of the last window, in ms. */
  get delay(): number {
    return this.delayMs;
  }

  get overloaded(): boolean {
    return this.thresholdMs > 0 && this.delayMs > this.thresholdMs;
  }

  close(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
