/**
 * Crash points for the crash-safety tests: with APP_FAILPOINT=<name> the process kills
 * itself (SIGKILL, no cleanup) when it reaches that point, as a power cut would; a
 * `pause-` point stops it instead (SIGSTOP, once per process) until the test sends SIGCONT,
 * as a long GC pause or a frozen VM would. Unset in production, where `failpoint()` is a
 * comparison and nothing else.
 */
export type FailpointName = 'before-broadcast' | 'after-broadcast' | 'after-record' | 'pause-before-record';

let paused = false;

export function failpoint(name: FailpointName): void {
  if (process.env.APP_FAILPOINT !== name) return;
  if (!name.startsWith('pause-')) return void process.kill(process.pid, 'SIGKILL');
  if (paused) return;
  paused = true;
  process.kill(process.pid, 'SIGSTOP');
}
