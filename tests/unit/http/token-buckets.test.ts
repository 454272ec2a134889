import { TokenBuckets } from '../../../src/http/token-buckets';

const budget = { perSecond: 10, burst: 30 };

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('TokenBuckets', () => {
  test('a new client starts full, spends down to zero, then is refused with the wait its cost needs', () => {
    const c = clock();
    const b = new TokenBuckets(100, c.now);
    expect(b.take('a', budget, 25)).toMatchObject({ allowed: true, remaining: 5 });
    const refused = b.take('a', budget, 21);
    // 16 units missing at 10 a second: 1.6 s, said as 2 whole seconds
    expect(refused).toMatchObject({ allowed: false, remaining: 5, retryAfterSeconds: 2 });
    expect(b.take('a', budget, 5)).toMatchObject({ allowed: true, remaining: 0, fullInSeconds: 3 });
  });

  test('refills at its rate up to the burst, never above', () => {
    const c = clock();
    const b = new TokenBuckets(100, c.now);
    b.take('a', budget, 30);
    c.advance(1500);
    expect(b.peek('a', budget).remaining).toBeCloseTo(15);
    c.advance(60_000);
    expect(b.peek('a', budget)).toEqual({ remaining: 30, fullInSeconds: 0 });
  });

  test('clients are apart: one spending everything leaves the other full', () => {
    const b = new TokenBuckets(100, clock().now);
    b.take('abuser', budget, 30);
    expect(b.take('abuser', budget, 1).allowed).toBe(false);
    expect(b.take('polite', budget, 1)).toMatchObject({ allowed: true, remaining: 29 });
  });

  test('adjust gives back (a 304) or takes more, below zero too (the client then waits longer)', () => {
    const c = clock();
    const b = new TokenBuckets(100, c.now);
    b.take('a', budget, 20);
    b.adjust('a', budget, 19.9);
    expect(b.peek('a', budget).remaining).toBeCloseTo(29.9);
    b.adjust('a', budget, -50);
    expect(b.peek('a', budget).remaining).toBe(0);
    expect(b.take('a', budget, 1)).toMatchObject({ allowed: false, retryAfterSeconds: 3 });
    c.advance(2000);
    expect(b.take('a', budget, 1).allowed).toBe(false); // 20.1 owed + 1: 2.11 s
    c.advance(200);
    expect(b.take('a', budget, 1).allowed).toBe(true);
  });

  test('keeps at most maxClients buckets, forgetting the least recently seen', () => {
    const b = new TokenBuckets(2, clock().now);
    b.take('a', budget, 30);
    b.take('b', budget, 30);
    b.take('a', budget, 0); // a seen again
    b.take('c', budget, 1);
    expect(b.size).toBe(2);
    expect(b.peek('a', budget).remaining).toBe(0); // kept
    expect(b.peek('b', budget).remaining).toBe(30); // forgotten: back full
  });
});
