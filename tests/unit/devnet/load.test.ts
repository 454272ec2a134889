import { runMixedLoad } from './load';

describe('mixed load', () => {
  it('runs thousands of txs fast and deterministically (same history → same app hash)', () => {
    const first = runMixedLoad(3000);
    const second = runMixedLoad(3000);
    expect(second.appHash).toBe(first.appHash);
    expect(first.failed).toBeLessThan(first.txs / 5);
    // ~0.3 ms/tx on a laptop core; the bound only catches an accidental O(n) per tx
    expect(first.seconds).toBeLessThan(15);
  });
});
