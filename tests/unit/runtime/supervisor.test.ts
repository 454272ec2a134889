/** src/runtime/supervisor.ts with stand-in children that die when told to. */
import { createLogger } from '../../../src/runtime/logger';
import { Supervisor, type SupervisorOptions } from '../../../src/runtime/supervisor';

const quiet = createLogger({ format: 'json', level: 'error', write: () => undefined });

/** Children that record their lives; `kill()` makes the newest one exit on its own. */
function children(o: { failStarts?: number[] } = {}) {
  let started = 0;
  const live: { exit: (reason: string) => void; stopped: boolean }[] = [];
  const start: SupervisorOptions['start'] = async (onExit) => {
    started += 1;
    if (o.failStarts?.includes(started)) throw new Error(`start ${started} failed\nsecond line`);
    const child = { exit: onExit, stopped: false };
    live.push(child);
    return { stop: async () => void (child.stopped = true) };
  };
  return {
    start,
    started: () => started,
    live,
    kill: (reason = 'signal SIGKILL') => live[live.length - 1].exit(reason),
  };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(probe: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await tick(5);
  }
}

function supervisor(c: ReturnType<typeof children>, extra: Partial<SupervisorOptions> = {}) {
  const events: string[] = [];
  const s = new Supervisor({
    name: 'the child',
    start: c.start,
    initialBackoffMs: 20,
    maxBackoffMs: 80,
    maxRestarts: 3,
    windowMs: 60_000,
    log: quiet,
    onRestart: (n) => events.push(`restart ${n}`),
    onGiveUp: (m) => events.push(`gave up: ${m}`),
    ...extra,
  });
  return { s, events };
}

describe('Supervisor', () => {
  test('a child that dies is started again after the backoff; while it is down the reason says so', async () => {
    const c = children();
    const { s, events } = supervisor(c);
    await s.start();
    expect([s.state, s.notRunningReason()]).toEqual(['running', null]);
    c.kill();
    expect(s.state).toBe('restarting');
    expect(s.notRunningReason()).toBe('the child is restarting after it exited (signal SIGKILL); restart 1');
    await until(() => s.state === 'running');
    expect([c.started(), s.restarts, events]).toEqual([2, 1, ['restart 1']]);
    await s.stop();
    expect(c.live.map((x) => x.stopped)).toEqual([false, true]);
  });

  test('the backoff doubles per exit within the window, up to the maximum', async () => {
    const c = children();
    const { s } = supervisor(c, { maxRestarts: 10, initialBackoffMs: 30, maxBackoffMs: 60 });
    await s.start();
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = Date.now();
      c.kill();
      await until(() => s.state === 'running');
      waits.push(Date.now() - t);
    }
    expect(waits[0]).toBeGreaterThanOrEqual(25);
    expect(waits[1]).toBeGreaterThanOrEqual(55);
    expect(waits[2]).toBeGreaterThanOrEqual(55);
    expect(waits[2]).toBeLessThan(300);
    await s.stop();
  });

  test('more exits than maxRestarts within the window: it gives up with a message and stays down', async () => {
    const c = children();
    const { s, events } = supervisor(c, { maxRestarts: 2 });
    await s.start();
    for (let i = 0; i < 2; i++) {
      c.kill(`code 1, exit ${i + 1}`);
      await until(() => s.state === 'running');
    }
    c.kill('code 1, exit 3');
    expect(s.state).toBe('failed');
    expect(events.at(-1)).toBe(
      'gave up: the child exited 3 times within 60 s (last: code 1, exit 3); not restarting it again',
    );
    expect(s.notRunningReason()).toBe('the child stopped for good: code 1, exit 3');
    await tick(100);
    expect(c.started()).toBe(3);
  });

  test('a restart that fails to start counts as another exit and is retried', async () => {
    const c = children({ failStarts: [2] });
    const { s, events } = supervisor(c);
    await s.start();
    c.kill();
    await until(() => s.state === 'running' && c.started() === 3);
    expect(events).toEqual(['restart 1']);
    await s.stop();
  });

  test('stop() during a backoff: no restart happens, and a stopped child is not reported as an exit', async () => {
    const c = children();
    const { s, events } = supervisor(c, { initialBackoffMs: 50 });
    await s.start();
    c.kill();
    await s.stop();
    await tick(120);
    expect([c.started(), s.state, events]).toEqual([1, 'stopped', []]);
  });

  test("the first start failing is the caller's error (nothing to restart yet)", async () => {
    const c = children({ failStarts: [1] });
    const { s } = supervisor(c);
    await expect(s.start()).rejects.toThrow('start 1 failed');
  });

  test('replace(): the child is stopped and started again, never reported down, not counted as a restart; its old exit is not an exit', async () => {
    const c = children();
    const { s, events } = supervisor(c);
    await s.start();
    const reasons: (string | null)[] = [];
    const replaced = s.replace('head flags');
    reasons.push(s.notRunningReason());
    expect(s.state).toBe('replacing');
    expect(await s.replace('again')).toBe(false); // one at a time
    expect(await replaced).toBe(true);
    reasons.push(s.notRunningReason());
    expect([c.started(), s.state, s.restarts, events, reasons]).toEqual([2, 'running', 0, [], [null, null]]);
    expect(c.live.map((x) => x.stopped)).toEqual([true, false]);
    c.live[0].exit('late exit of the replaced child'); // ignored
    await tick(60);
    expect([c.started(), s.state]).toEqual([2, 'running']);
    c.kill(); // the new one dying is an exit as any other
    await until(() => s.state === 'running' && c.started() === 3);
    expect(events).toEqual(['restart 1']);
    await s.stop();
  });

  test('replace() whose start fails counts as an exit and is restarted; stop() during a replacement starts nothing more', async () => {
    const c = children({ failStarts: [2] });
    const { s, events } = supervisor(c);
    await s.start();
    expect(await s.replace('head flags')).toBe(false);
    await until(() => s.state === 'running' && c.started() === 3);
    expect(events).toEqual(['restart 1']);
    const replacing = s.replace('once more');
    await s.stop();
    expect(await replacing).toBe(false); // stopped before it started another
    expect([c.started(), s.state, c.live.every((x) => x.stopped)]).toEqual([3, 'stopped', true]);
  });
});
