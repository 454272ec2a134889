import { INDEX_SCALE, carryAmount, distribute, pendingIncome, residue } from '../../../src/lib/accrual';
import { InvalidInputError } from '../../../src/lib/errors';

const TWO_64 = 1n << 64n;

/** Deterministic PRNG (xorshift64*) over bigint so scenarios reproduce. */
function rng(seed: bigint): (max: bigint) => bigint {
  let s = seed || 1n;
  const MASK = (1n << 64n) - 1n;
  return (max: bigint) => {
    s ^= (s << 13n) & MASK;
    s ^= s >> 7n;
    s ^= (s << 17n) & MASK;
    return s % max;
  };
}

describe('distribute', () => {
  it('computes index delta and carry by floor division of amount*SCALE + carry', () => {
    // 1 base unit over 3 units: 10^18 / 3 = 333333333333333333 r 1
    const r = distribute({ index: 0n, carryScaled: 0n, supply: 3n, amount: 1n });
    expect(r.indexDelta).toBe(333333333333333333n);
    expect(r.carryScaled).toBe(1n);
    expect(r.newIndex).toBe(333333333333333333n);
    // the carry joins the next distribution: (10^18 + 1) / 3 = 333333333333333333 r 2
    const r2 = distribute({ index: r.newIndex, carryScaled: r.carryScaled, supply: 3n, amount: 1n });
    expect(r2.indexDelta).toBe(333333333333333333n);
    expect(r2.carryScaled).toBe(2n);
    // third: (10^18 + 2) / 3 = 333333333333333334 r 0 — the carry is paid out, nothing lost
    const r3 = distribute({ index: r2.newIndex, carryScaled: r2.carryScaled, supply: 3n, amount: 1n });
    expect(r3.indexDelta).toBe(333333333333333334n);
    expect(r3.carryScaled).toBe(0n);
    expect(r3.newIndex).toBe(INDEX_SCALE); // exactly 1 base unit per unit after 3 base units over 3 units
  });

  it('keeps carry < supply and conserves scaled value exactly, with amounts above 2^64', () => {
    const next = rng(42n);
    let index = 0n;
    let carry = 0n;
    let lhs = 0n; // Σ amount * SCALE
    let rhs = 0n; // Σ supply * Δindex
    for (let i = 0; i < 200; i++) {
      const supply = 1n + next(i % 2 === 0 ? 1000n : TWO_64 * 3n);
      const amount = 1n + next(i % 3 === 0 ? 10n : TWO_64 * 1000n);
      const r = distribute({ index, carryScaled: carry, supply, amount });
      expect(r.carryScaled >= 0n && r.carryScaled < supply).toBe(true);
      expect(r.newIndex).toBe(index + r.indexDelta);
      expect(r.indexDelta * supply + r.carryScaled).toBe(amount * INDEX_SCALE + carry);
      lhs += amount * INDEX_SCALE;
      rhs += supply * r.indexDelta;
      index = r.newIndex;
      carry = r.carryScaled;
    }
    expect(lhs).toBe(rhs + carry);
  });

  it('accepts a carry larger than a shrunken supply', () => {
    const r = distribute({ index: 5n, carryScaled: 10n, supply: 4n, amount: 1n });
    expect(r.indexDelta).toBe((INDEX_SCALE + 10n) / 4n);
    expect(r.carryScaled).toBe((INDEX_SCALE + 10n) % 4n);
  });

  it('rejects non-positive supply or amount, negative index or carry, and numbers', () => {
    const ok = { index: 0n, carryScaled: 0n, supply: 10n, amount: 10n };
    expect(() => distribute({ ...ok, supply: 0n })).toThrow(InvalidInputError);
    expect(() => distribute({ ...ok, supply: -1n })).toThrow(InvalidInputError);
    expect(() => distribute({ ...ok, amount: 0n })).toThrow(InvalidInputError);
    expect(() => distribute({ ...ok, amount: -5n })).toThrow(InvalidInputError);
    expect(() => distribute({ ...ok, index: -1n })).toThrow(InvalidInputError);
    expect(() => distribute({ ...ok, carryScaled: -1n })).toThrow(InvalidInputError);
    expect(() => distribute({ ...ok, amount: 10 as unknown as bigint })).toThrow(InvalidInputError);
  });
});

describe('pendingIncome / carryAmount / residue', () => {
  it('floors per holder', () => {
    const index = 333333333333333333n;
    expect(pendingIncome(1n, index, 0n)).toBe(0n);
    expect(pendingIncome(3n, index, 0n)).toBe(0n); // 0.999… floors to 0
    expect(pendingIncome(4n, index, 0n)).toBe(1n);
    expect(pendingIncome(3n, INDEX_SCALE * 2n, INDEX_SCALE)).toBe(3n);
    expect(pendingIncome(0n, INDEX_SCALE, 0n)).toBe(0n);
  });
  it('handles units and indices above 2^64', () => {
    const units = TWO_64 * 5n + 3n;
    const idx = INDEX_SCALE * TWO_64 + 7n;
    expect(pendingIncome(units, idx, 0n)).toBe((units * idx) / INDEX_SCALE);
    expect(pendingIncome(units, idx, 0n) > TWO_64 * TWO_64).toBe(true);
  });
  it('rejects negative units and an index below the snapshot', () => {
    expect(() => pendingIncome(-1n, 10n, 0n)).toThrow(InvalidInputError);
    expect(() => pendingIncome(1n, 10n, 11n)).toThrow(InvalidInputError);
  });
  it('carryAmount floors the scaled carry', () => {
    expect(carryAmount(0n)).toBe(0n);
    expect(carryAmount(INDEX_SCALE - 1n)).toBe(0n);
    expect(carryAmount(INDEX_SCALE * 3n + 5n)).toBe(3n);
    expect(() => carryAmount(-1n)).toThrow(InvalidInputError);
  });
  it('residue = moduleHeld − sumClaimable − carry, unclamped', () => {
    expect(residue({ moduleHeld: 100n, sumClaimable: 97n, carry: 1n })).toBe(2n);
    expect(residue({ moduleHeld: 100n, sumClaimable: 101n, carry: 0n })).toBe(-1n);
  });
});

describe('books balance: Σ holder income + residue + carry == distributed total', () => {
  it('static holders: floors lose less than one unit per holder', () => {
    const next = rng(7n);
    const holders = Array.from({ length: 97 }, () => 1n + next(TWO_64 * 10n));
    const supply = holders.reduce((a, b) => a + b, 0n);
    let index = 0n;
    let carry = 0n;
    let total = 0n;
    for (let i = 0; i < 25; i++) {
      const amount = 1n + next(i % 2 ? 1000n : TWO_64 * TWO_64);
      const r = distribute({ index, carryScaled: carry, supply, amount });
      index = r.newIndex;
      carry = r.carryScaled;
      total += amount;
    }
    const incomes = holders.map((u) => pendingIncome(u, index, 0n));
    const sumClaimable = incomes.reduce((a, b) => a + b, 0n);
    const c = carryAmount(carry);
    const res = residue({ moduleHeld: total, sumClaimable, carry: c });
    expect(sumClaimable + res + c).toBe(total);
    // the bound that makes the identity meaningful: 0 ≤ residue ≤ number of holders
    expect(res >= 0n).toBe(true);
    expect(res <= BigInt(holders.length)).toBe(true);
    expect(sumClaimable > TWO_64).toBe(true);
  });

  it('transfers between distributions (settle-then-move) still balance', () => {
    const next = rng(2024n);
    const n = 40;
    const units = Array.from({ length: n }, () => 1n + next(1_000_000n));
    const snap = Array.from({ length: n }, () => 0n);
    const accrued = Array.from({ length: n }, () => 0n);
    const supply = units.reduce((a, b) => a + b, 0n);
    let index = 0n;
    let carry = 0n;
    let total = 0n;
    let settlements = 0n;
    const settle = (h: number): void => {
      accrued[h] += pendingIncome(units[h], index, snap[h]);
      snap[h] = index;
      settlements++;
    };
    for (let round = 0; round < 60; round++) {
      const amount = 1n + next(round % 4 === 0 ? 7n : TWO_64 * 50n);
      const r = distribute({ index, carryScaled: carry, supply, amount });
      index = r.newIndex;
      carry = r.carryScaled;
      total += amount;
      // a few transfers: both sides settle at the current index before units move
      for (let t = 0; t < 3; t++) {
        const from = Number(next(BigInt(n)));
        const to = Number(next(BigInt(n)));
        if (from === to || units[from] === 0n) continue;
        settle(from);
        settle(to);
        const moved = 1n + next(units[from]);
        units[from] -= moved;
        units[to] += moved;
      }
    }
    const sumClaimable = units.reduce((acc, u, h) => acc + accrued[h] + pendingIncome(u, index, snap[h]), 0n);
    const c = carryAmount(carry);
    const res = residue({ moduleHeld: total, sumClaimable, carry: c });
    expect(sumClaimable + res + c).toBe(total);
    expect(units.reduce((a, b) => a + b, 0n)).toBe(supply); // transfers conserve supply
    expect(res >= 0n).toBe(true);
    // each floor (one per holder at the end, one per settlement) loses < 1 base unit
    expect(res <= BigInt(n) + settlements).toBe(true);
  });

  it('one holder owning all units loses nothing but the carry remainder', () => {
    const supply = 7n;
    let index = 0n;
    let carry = 0n;
    let total = 0n;
    for (const amount of [1n, 2n, 3n, TWO_64, 5n]) {
      const r = distribute({ index, carryScaled: carry, supply, amount });
      index = r.newIndex;
      carry = r.carryScaled;
      total += amount;
    }
    const income = pendingIncome(supply, index, 0n);
    // supply*index = total*SCALE - carry, and carry < supply ≤ SCALE, so floor gives total - 1 or total
    expect(supply * index + carry).toBe(total * INDEX_SCALE);
    expect(income === total || (income === total - 1n && carry > 0n)).toBe(true);
    expect(residue({ moduleHeld: total, sumClaimable: income, carry: carryAmount(carry) })).toBe(total - income);
  });
});
