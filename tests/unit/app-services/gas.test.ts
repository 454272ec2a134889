/** The signer's gas limit: simulation × adjustment, the per-message fallback, the floor and the cap. */
import { estimateGas, isOutOfGas } from '../../../app-services/chain/signer';

const settings = { adjustment: 1.3, base: 100_000n, perMessage: 40_000n, max: 2_000_000n };

test('a simulated tx gets its gas times the adjustment, rounded up', () => {
  expect(estimateGas({ gasUsed: 100_001n }, 1, settings)).toBe(130_002n);
  expect(estimateGas({ gasUsed: 50_000n }, 40, { ...settings, adjustment: 1 })).toBe(50_000n);
});

test('without a simulation: base plus a share per message', () => {
  expect(estimateGas({ error: 'sdk/6 unknown query path' }, 1, settings)).toBe(140_000n);
  expect(estimateGas({ error: 'x' }, 40, settings)).toBe(1_700_000n);
});

test('never below the floor (an out-of-gas retry), never above the cap', () => {
  expect(estimateGas({ gasUsed: 10_000n }, 1, settings, 300_000n)).toBe(300_000n);
  expect(estimateGas({ gasUsed: 10_000_000n }, 1, settings)).toBe(2_000_000n);
  expect(estimateGas({ error: 'x' }, 100, settings)).toBe(2_000_000n);
  expect(estimateGas({ gasUsed: 10_000n }, 1, settings, 5_000_000n)).toBe(2_000_000n);
});

test('out of gas is sdk/11 only', () => {
  expect(isOutOfGas({ code: 11, codespace: 'sdk' })).toBe(true);
  expect(isOutOfGas({ code: 11, codespace: 'svc' })).toBe(false);
  expect(isOutOfGas({ code: 5, codespace: 'sdk' })).toBe(false);
});
