/**
 * The machine state a throughput figure depends on: cores, load averages
 * and the processes using CPU at that moment (other engineers' jobs share
 * the 2 cores; a figure taken under load says so).
 */
import { execFileSync } from 'child_process';
import os from 'os';

export interface MachineState {
  at: string;
  cores: number;
  /** 1, 5, 15 minute load averages */
  load: [number, number, number];
  /** the busiest processes other than this one: "%cpu command" */
  busiest: string[];
}

export function machineState(): MachineState {
  let busiest: string[] = [];
  try {
    busiest = execFileSync('ps', ['-eo', 'pid,pcpu,etime,args', '--sort=-pcpu', '--no-headers'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith(`${process.pid} `))
      .slice(0, 5)
      .map((l) => l.replace(/^\d+\s+/, '').slice(0, 90));
  } catch {
    /* no ps */
  }
  const [a, b, c] = os.loadavg();
  const r = (x: number) => Math.round(x * 100) / 100;
  return { at: new Date().toISOString(), cores: os.cpus().length, load: [r(a), r(b), r(c)], busiest };
}

/** Load average per core above which a figure is flagged as taken on a busy machine. */
export const BUSY_LOAD_PER_CORE = 0.75;

export function busy(m: MachineState): boolean {
  return m.load[0] / m.cores > BUSY_LOAD_PER_CORE;
}
