/**
 * A child started in its own process group does not hear the terminal's Ctrl-C, and nothing
 * stops it if this process is killed outright (SIGKILL, OOM). This detached shell does: it
 * polls both pids and, once this process is gone, sends SIGTERM, then SIGKILL after a grace.
 */
import { spawn } from 'child_process';

const SCRIPT = `
parent=$1; child=$2; grace=$3
while kill -0 "$parent" 2>/dev/null; do
  kill -0 "$child" 2>/dev/null || exit 0
  sleep 1
done
kill -TERM "$child" 2>/dev/null
i=0; while kill -0 "$child" 2>/dev/null && [ $i -lt "$grace" ]; do sleep 0.1; i=$((i+1)); done
kill -KILL "$child" 2>/dev/null
`;

/** Best effort: a watchdog that exits by itself once the child has exited. */
export function stopWhenParentDies(childPid: number, graceMs = 10_000): void {
  try {
    const w = spawn(
      'sh',
      ['-c', SCRIPT, 'svc-watchdog', String(process.pid), String(childPid), String(Math.ceil(graceMs / 100))],
      { detached: true, stdio: 'ignore' },
    );
    w.on('error', () => undefined);
    w.unref();
  } catch {
    /* best effort */
  }
}
