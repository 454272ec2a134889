/** src/runtime/head-switch.ts: when npm start's node starts at the head's flags, and when it switches to them. */
import { startsAtHead, switchWithin, watchForHead } from '../../../src/runtime/head-switch';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('head switch', () => {
  test('a node within NODE_CATCH_UP_BLOCKS of the tip starts at the head; further behind (or nothing indexed on a long chain) it catches up first', () => {
    expect(startsAtHead({ indexed: 9_000, tip: 14_000, catchUpBlocks: 5000 })).toBe(true);
    expect(startsAtHead({ indexed: 8_999, tip: 14_000, catchUpBlocks: 5000 })).toBe(false);
    expect(startsAtHead({ indexed: undefined, tip: 140, catchUpBlocks: 5000 })).toBe(true);
    expect(startsAtHead({ indexed: undefined, tip: 140, catchUpBlocks: 50 })).toBe(false);
    expect([switchWithin(5000), switchWithin(50)]).toEqual([100, 50]);
  });

  test('onHead once, the first time the lag is within the bound; unknown lags and failed reads wait', async () => {
    const lags: (number | undefined | Error)[] = [undefined, new Error('db down'), 250, 120, 100, 3, 0];
    const reads: number[] = [];
    const heads: number[] = [];
    const w = watchForHead({
      withinBlocks: 100,
      everyMs: 5,
      lag: async () => {
        const next = lags.shift();
        reads.push(reads.length);
        if (next instanceof Error) throw next;
        return next;
      },
      onHead: async (lag) => void heads.push(lag),
    });
    await w.reached;
    await tick(40);
    expect([heads, reads.length]).toEqual([[100], 5]);
    w.stop();
  });

  test('stopped before the head: onHead is never called', async () => {
    let reads = 0;
    const w = watchForHead({
      withinBlocks: 3,
      everyMs: 5,
      lag: async () => (++reads, 50),
      onHead: async () => {
        throw new Error('not at the head');
      },
    });
    // wait for reads, not for a fixed time: a loaded machine runs the timers late
    while (reads < 3) await tick(5);
    w.stop();
    const after = reads;
    await tick(30);
    expect(after).toBeGreaterThanOrEqual(3);
    expect(reads).toBe(after);
  });
});
