/** Polls `probe` until it answers something other than undefined; throws after `ms` with `what` and `context()`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  o: { ms?: number; everyMs?: number; context?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (o.ms ?? 30_000);
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${o.context ? `; ${o.context()}` : ''}`);
    await new Promise((r) => setTimeout(r, o.everyMs ?? 100));
  }
}
