/**
 * Crash points for the crash-safety tests: with APP_FAILPOINT=<name> the process kills
 * itself (SIGKILL, no cleanup) when it reaches that point, as a power cut would. Unset in
 * production, where `failpoint()` is a comparison and nothing else.
 */
export type FailpointName = 'before-broadcast' | 'after-broadcast' | 'after-record';

export function failpoint(name: FailpointName): void {
  if (process.env.APP_FAILPOINT === name) process.kill(process.pid, 'SIGKILL');
}
