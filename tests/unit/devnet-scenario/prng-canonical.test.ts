import { createHash } from 'node:crypto';
import {
  autoIntervalMs,
  canonicalStringify,
  historyTimeline,
  LEAD_IN_BLOCKS,
  liveStartTime,
  metadataHash,
  Prng,
  Timeline,
} from '../../../devnet/scenario';

describe('Prng', () => {
  it('is a pure function of the seed', () => {
    const draw = (seed: string) => {
      const r = new Prng(seed);
      return Array.from({ length: 20 }, () => r.nextUint32());
    };
    expect(draw('a')).toEqual(draw('a'));
    expect(draw('a')).not.toEqual(draw('b'));
  });

  it('keeps int, bigint and pick within their ranges', () => {
    const r = new Prng('ranges');
    for (let i = 0; i < 2000; i++) {
      const n = r.int(-3, 7);
      expect(n).toBeGreaterThanOrEqual(-3);
      expect(n).toBeLessThanOrEqual(7);
      const b = r.bigint(10n, 12n);
      expect(b >= 10n && b <= 12n).toBe(true);
      const big = r.bigint(0n, 2n ** 80n);
      expect(big >= 0n && big <= 2n ** 80n).toBe(true);
    }
    expect(() => r.int(2, 1)).toThrow(RangeError);
    expect(() => r.pick([])).toThrow(RangeError);
  });

  it('forks independent streams', () => {
    const a = new Prng('root').fork('x');
    const b = new Prng('root').fork('x');
    expect(a.nextUint32()).toBe(b.nextUint32());
  });
});

describe('canonical JSON and the metadata hash', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalStringify({ b: 1, a: { d: [3, { z: null, y: 'é' }], c: true } })).toBe(
      '{"a":{"c":true,"d":[3,{"y":"é","z":null}]},"b":1}',
    );
  });

  it('hashes equal documents equally whatever their key order', () => {
    const doc = { name: 'N', symbol: 'S', template: 'community', description: 'd' };
    const reordered = { template: 'community', description: 'd', symbol: 'S', name: 'N' };
    expect(metadataHash(doc)).toBe(metadataHash(reordered));
    expect(metadataHash(doc)).toBe(
      createHash('sha256').update('{"description":"d","name":"N","symbol":"S","template":"community"}').digest('hex'),
    );
  });

  it('refuses numbers JSON cannot carry', () => {
    expect(() => canonicalStringify({ x: Number.NaN })).toThrow(TypeError);
  });
});

describe('Timeline', () => {
  it('is strictly increasing, starts at the start time and jumps in long histories', () => {
    const t = new Timeline(Date.UTC(2026, 0, 1), 60_000, 400, new Prng('t'));
    expect(t.timeOf(1)).toBe(Date.UTC(2026, 0, 1));
    for (let h = 2; h <= 400; h++) expect(t.timeOf(h)).toBeGreaterThan(t.timeOf(h - 1));
    expect(t.maxJumpMs).toBeGreaterThanOrEqual(12 * 3_600_000);
    expect(t.spanMs).toBeGreaterThan(399 * 60_000 + t.maxJumpMs - 60_000);
  });

  it('picks an interval that spans about 14 days, within 5 s .. 6 h', () => {
    expect(autoIntervalMs(10_000)).toBe(120_960);
    expect(autoIntervalMs(10)).toBe(6 * 3_600_000);
    expect(autoIntervalMs(10_000_000)).toBe(5_000);
  });
});

describe('live start time', () => {
  test('the history ends the lead-in and two live blocks before now, however long its blocks are apart', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0);
    const room = (LEAD_IN_BLOCKS + 2) * 1000;
    for (const blocks of [56, 200, 2000]) {
      const start = liveStartTime({ seed: 'svc-devnet', blocks }, 1000, now);
      const times = historyTimeline({ seed: 'svc-devnet', blocks, startTimeMs: start }).times;
      const last = times[times.length - 1];
      expect(now - last).toBeGreaterThanOrEqual(room);
      expect(now - last).toBeLessThan(room + 1000); // start rounded down to a whole second
    }
  });
});
