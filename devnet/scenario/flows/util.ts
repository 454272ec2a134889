/** Small helpers shared by the flows. */
import type { Actor } from '../accounts';
import type { Ctx, Handle, Outcome } from '../context';
import { bytesToHex } from '../../../src/lib/bytes';

/** 1 whole unit = 10^6 base units (six decimals in every flow). */
export const WHOLE = 1_000_000n;

/** A scenario bug, not a chain outcome: the generator planned a tx the chain refused. */
export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** The committed outcome of a tx that must have succeeded. */
export function expectOk(ctx: Ctx, handle: Handle, what: string): Outcome {
  const o = ctx.outcome(handle);
  if (!o.ok) throw new ScenarioError(`${what} failed at height ${handle.height}: ${o.codespace}/${o.code} ${o.log}`);
  return o;
}

/** Holders (in a seeded order) for which `accept` holds; at most `n`. */
export function pickActors(
  ctx: Ctx,
  from: readonly Actor[],
  n: number,
  accept: (a: Actor) => boolean = () => true,
): Actor[] {
  const order = shuffled(ctx, from);
  const out: Actor[] = [];
  for (const a of order) {
    if (out.length >= n) break;
    if (accept(a)) out.push(a);
  }
  return out;
}

export function shuffled<T>(ctx: Ctx, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = ctx.rng.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** 0x + 64 hex of seeded bytes (bridge message ids, remote addresses, evidence hashes without 0x). */
export function bytes32(ctx: Ctx): string {
  return '0x' + bytesToHex(ctx.rng.bytes(32));
}

export function hash32(ctx: Ctx): string {
  return bytesToHex(ctx.rng.bytes(32));
}

/** A random part of `available` in [1, available / divisor] (0 when nothing is available). */
export function somePart(ctx: Ctx, available: bigint, divisor = 10n): bigint {
  const max = available / divisor;
  return max < 1n ? (available > 0n ? 1n : 0n) : ctx.rng.bigint(1n, max);
}

/** The first response's uint64 field as a number (ids stay far below 2^53). */
export function responseId(o: Outcome, field: string, index = 0): number {
  const v = o.responses[index]?.[field];
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new ScenarioError(`response has no ${field}: ${JSON.stringify(o.responses[index])}`);
  return n;
}
