/**
 * Memo of values that are a function of the indexed height alone. The node commits each
 * flush with `_metadata.lastProcessedHeight` in one transaction, so everything it writes
 * is the same at the same height: a value computed in an earlier snapshot at that height
 * is the value this snapshot would compute. Only for node-written data (never the
 * reconciler's rows, which are written independently of heights).
 */
export class HeightMemo<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly maxEntries: number) {}

  /** The kept value, if any, without computing (counts as a use, like get). */
  peek(height: number, key: string): T | undefined {
    return this.use(`${height}|${key}`);
  }

  async get(height: number, key: string, compute: () => Promise<T>): Promise<T> {
    const id = `${height}|${key}`;
    const hit = this.use(id);
    if (hit !== undefined) return hit;
    const value = await compute();
    this.entries.set(id, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  /** Forgets everything: after a rewind a height may be indexed again from other rows (a reindex with a new project). */
  clear(): void {
    this.entries.clear();
  }

  private use(id: string): T | undefined {
    const hit = this.entries.get(id);
    if (hit !== undefined) {
      this.entries.delete(id); // refresh its place: least recently used goes first
      this.entries.set(id, hit);
    }
    return hit;
  }
}
