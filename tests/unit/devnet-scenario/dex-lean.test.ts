/** The live traders' lean against a pool's move (devnet/scenario/flows/dex.ts sellChance). */
import { POOL_QUOTE, sellChance } from '../../../devnet/scenario/flows/dex';

const at = (quoteShare: number) => (POOL_QUOTE * BigInt(Math.round(quoteShare * 1000))) / 1000n;

test('the history keeps an even coin, whatever the pool', () => {
  for (const share of [0.5, 1, 3]) expect(sellChance(at(share), false)).toBe(0.5);
});

test('live: even at the launch price, more sells above it and more buys below it, never one side only', () => {
  expect(sellChance(POOL_QUOTE, true)).toBeCloseTo(0.5, 10);
  expect(sellChance(at(1.2), true)).toBeGreaterThan(0.75); // the price ×1.44
  expect(sellChance(at(1 / 1.2), true)).toBeLessThan(0.25);
  expect(sellChance(at(8), true)).toBe(0.9);
  expect(sellChance(at(0.1), true)).toBe(0.1);
});
