/**
 * The deliverer's scheduling parts: the delivery slots (at most `size` at once, handed over in
 * arrival order) and the group commit (advances queued while a statement runs go together in the
 * next one, one fencing epoch per statement, each caller told whether its own cursor moved).
 */
import { Committer, emptyProfile, Slots, Targets, targetShare } from '../../../../app-services/webhooks/dispatcher';
import type { AdvanceItem } from '../../../../app-services/webhooks/repository';

const tick = () => new Promise((r) => setImmediate(r));

describe('slots', () => {
  test('at most size holders; the waiting ones get a slot in arrival order as each is released', async () => {
    const slots = new Slots(2);
    const order: number[] = [];
    const held: (() => void)[] = [];
    const takers = [0, 1, 2, 3].map((n) =>
      slots.take().then((release) => {
        order.push(n);
        held.push(release);
      }),
    );
    await tick();
    expect(order).toEqual([0, 1]);
    held[0]();
    held[0](); // a second release of the same slot frees nothing more
    await tick();
    expect(order).toEqual([0, 1, 2]);
    held[1]();
    await Promise.all(takers);
    expect(order).toEqual([0, 1, 2, 3]);
  });

  test('free: the slots a take gets at once, none while others wait', async () => {
    const slots = new Slots(2);
    expect(slots.free).toBe(2);
    const first = await slots.take();
    await slots.take();
    expect(slots.free).toBe(0);
    const waiting = slots.take();
    first(); // handed over to the waiting one: still none free
    expect(slots.free).toBe(0);
    (await waiting)();
    expect(slots.free).toBe(1);
  });
});

describe("a target's share of the slots", () => {
  test('its connections (WEBHOOK_PER_TARGET), at most half of the slots, at least one', () => {
    expect(targetShare({ concurrency: 64, perTarget: 32 })).toBe(32);
    expect(targetShare({ concurrency: 64, perTarget: 8 })).toBe(8);
    expect(targetShare({ concurrency: 8, perTarget: 32 })).toBe(4);
    expect(targetShare({ concurrency: 7, perTarget: 32 })).toBe(4);
    expect(targetShare({ concurrency: 1, perTarget: 32 })).toBe(1);
  });
});

describe('the targets kept', () => {
  test('a target is kept while a delivery holds or waits for its turn, then forgotten unless it was slow', async () => {
    const targets = new Targets(1);
    const a = await targets.turn(new URL('https://a.example/hook'));
    const waiting = targets.turn(new URL('https://a.example:443/other')); // the same host and port
    const b = await targets.turn(new URL('http://b.example:8080/'));
    expect(targets.size).toBe(2);
    a.release(); // handed over to the waiting delivery: still in use
    expect(targets.size).toBe(2);
    const second = await waiting;
    expect(second.target).toBe(a.target);
    second.release();
    expect(targets.size).toBe(1);
    b.target.slow = true;
    b.release();
    expect(targets.size).toBe(1); // a slow target's next delivery must still know it was slow
    const again = await targets.turn(new URL('http://b.example:8080/x'));
    expect(again.target.slow).toBe(true);
    again.target.slow = false;
    again.release();
    expect(targets.size).toBe(0);
  });
});

describe('group commit', () => {
  const item = (id: string): AdvanceItem => ({
    id,
    from: { height: 1, eventId: null },
    cursor: { height: 2, eventId: null },
    delivered: 1,
  });

  test('advances queued during a statement go in the next one together; one epoch per statement', async () => {
    const writes: { ids: string[]; epoch: bigint }[] = [];
    let finish: (() => void) | undefined;
    const profile = emptyProfile();
    const committer = new Committer(async (items, epoch) => {
      writes.push({ ids: items.map((i) => i.id), epoch });
      await new Promise<void>((r) => (finish = r));
      // the fenced-out holding's statement moves nothing; 'gone' was deleted meanwhile
      return { holds: epoch === 2n, moved: new Set(items.map((i) => i.id).filter((id) => id !== 'gone')) };
    }, profile);
    const first = committer.advance(item('a'), 2n);
    const queued = [
      committer.advance(item('b'), 2n),
      committer.advance(item('old'), 1n),
      committer.advance(item('gone'), 2n),
      committer.advance(item('c'), 2n),
    ];
    await tick();
    expect(writes).toEqual([{ ids: ['a'], epoch: 2n }]);
    finish!();
    expect(await first).toBe('moved');
    await tick();
    expect(writes[1]).toEqual({ ids: ['b', 'gone', 'c'], epoch: 2n });
    finish!();
    await tick();
    expect(writes[2]).toEqual({ ids: ['old'], epoch: 1n });
    finish!();
    expect(await Promise.all(queued)).toEqual(['moved', 'fenced', 'kept', 'moved']);
    expect(profile).toEqual(expect.objectContaining({ commits: 3, commitItems: 5 }));
  });

  test('a failed statement fails each of its callers, and the next advance is written', async () => {
    let fail = true;
    const committer = new Committer(async (items) => {
      if (fail) throw new Error('connection lost');
      return { holds: true, moved: new Set(items.map((i) => i.id)) };
    }, emptyProfile());
    await expect(committer.advance(item('a'), 1n)).rejects.toThrow('connection lost');
    fail = false;
    expect(await committer.advance(item('a'), 1n)).toBe('moved');
  });
});
