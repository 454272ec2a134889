/** Linux process controls for benchmarks: CPU time used, pause and resume, scheduling priority. */
import fs from 'fs';
import os from 'os';

/** USER_HZ: the unit of /proc/<pid>/stat times (100 on every Linux this runs on). */
const CLOCK_TICKS_PER_S = 100;

/** CPU seconds (user + system, every thread) the process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

/**
 * Sets the nice value of every thread of the process. Linux applies setpriority to one
 * thread, so the process's own id alone would leave V8's GC and libuv's threads as they were.
 * Raising it back (a lower value) needs root or CAP_SYS_NICE.
 */
export function setNice(pid: number, nice: number): void {
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      os.setPriority(Number(tid), nice);
    } catch {
      /* the thread ended meanwhile */
    }
  }
}

/** Stops the process where it is (SIGSTOP): it keeps its sockets and memory but takes no CPU. */
export function pause(pid: number): void {
  process.kill(pid, 'SIGSTOP');
}

export function resume(pid: number): void {
  process.kill(pid, 'SIGCONT');
}
