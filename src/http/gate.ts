/**
 * At most `size` pieces of work at once; the rest wait in order, each at most `waitMs`: a piece
 * that would wait longer is refused (the caller answers 503 with Retry-After) instead of queueing
 * without end behind work it cannot overtake. For work that holds one store connection each
 * (a GraphQL request holds one for its whole run), `size` is the pool's size.
 */
export class Gate {
  private running = 0;
  private readonly waiting: { go(): void }[] = [];

  constructor(
    readonly size: number,
    readonly waitMs: number,
  ) {}

  /** Resolves to a release function once there is room, or to undefined after `waitMs`. */
  enter(): Promise<(() => void) | undefined> {
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const entry = {
        go: () => {
          clearTimeout(timer);
          this.running++;
          resolve(this.releaser());
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(entry), 1);
        resolve(undefined);
      }, this.waitMs);
      this.waiting.push(entry);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.waiting.shift()?.go();
    };
  }
}
