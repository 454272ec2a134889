/**
 * A small seeded PRNG (sfc32, 128-bit state from SHA-256 of the seed text) so
 * a scenario is a pure function of its seed. Never Math.random: two runs with
 * one seed must produce byte-identical chains.
 */
import { sha256 } from '@noble/hashes/sha2';
import { utf8Encode } from '../../src/lib/bytes';

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    const h = sha256(utf8Encode(`svc-devnet-prng/${seed}`));
    const word = (i: number) => ((h[i] << 24) | (h[i + 1] << 16) | (h[i + 2] << 8) | h[i + 3]) >>> 0;
    [this.a, this.b, this.c, this.d] = [word(0), word(4), word(8), word(12)];
    // the reference implementation discards the first outputs to mix the state
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  /** An independent stream for one purpose, so adding draws in one place does not shift another. */
  fork(label: string): Prng {
    return new Prng(`${this.nextUint32()}/${label}`);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    if (max < min) throw new RangeError(`empty range [${min}, ${max}]`);
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform bigint in [min, max] (inclusive); fine for ranges far below 2^53. */
  bigint(min: bigint, max: bigint): bigint {
    if (max < min) throw new RangeError(`empty range [${min}, ${max}]`);
    const span = max - min + 1n;
    if (span <= BigInt(Number.MAX_SAFE_INTEGER)) return min + BigInt(Math.floor(this.next() * Number(span)));
    return min + (((BigInt(this.nextUint32()) << 32n) | BigInt(this.nextUint32())) % span);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Index chosen with the given non-negative weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((s, w) => s + w, 0);
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** n bytes (for message ids, evidence hashes, remote addresses). */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.nextUint32() & 0xff;
    return out;
  }
}
