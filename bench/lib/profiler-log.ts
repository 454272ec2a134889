/**
 * Aggregates the node's `--profiler` log lines ("<target>, <method>, <ms> ms"):
 * per handler (handlerPerformance) and per node method (fetchBlocksBatches,
 * flushData): calls, total, mean, median, p95.
 *
 *   npx ts-node --transpile-only bench/lib/profiler-log.ts <node.log> [--blocks N]
 */
import fs from 'fs';

export interface Timing {
  name: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const LINE = /profiler.*?INFO\s+([A-Za-z]+), ([A-Za-z0-9_]+), ([0-9.]+) ms/;

export function profilerTimings(text: string): Timing[] {
  const by = new Map<string, number[]>();
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw.replace(ANSI, ''));
    if (!m) continue;
    const name = m[1] === 'handlerPerformance' ? m[2] : `${m[1]}.${m[2]}`;
    const list = by.get(name) ?? [];
    list.push(Number(m[3]));
    by.set(name, list);
  }
  const pick = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  return [...by]
    .map(([name, xs]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const total = xs.reduce((a, b) => a + b, 0);
      return {
        name,
        calls: xs.length,
        totalMs: Math.round(total),
        meanMs: total / xs.length,
        p50Ms: pick(sorted, 0.5),
        p95Ms: pick(sorted, 0.95),
      };
    })
    .sort((a, b) => b.totalMs - a.totalMs);
}

if (require.main === module) {
  const file = process.argv[2];
  const blocksArg = process.argv.indexOf('--blocks');
  const blocks = blocksArg > 0 ? Number(process.argv[blocksArg + 1]) : 0;
  if (!file) {
    console.error('usage: profiler-log.ts <node.log> [--blocks N]');
    process.exit(2);
  }
  const rows = profilerTimings(fs.readFileSync(file, 'utf8'));
  const f = (x: number) => x.toFixed(2).padStart(8);
  console.log(
    `${'name'.padEnd(44)} ${'calls'.padStart(7)} ${'total ms'.padStart(9)} ${'mean'.padStart(8)} ${'p50'.padStart(8)} ${'p95'.padStart(8)}${blocks ? '  per block: calls, ms' : ''}`,
  );
  for (const r of rows) {
    const perBlock = blocks
      ? `  ${(r.calls / blocks).toFixed(2).padStart(6)} ${(r.totalMs / blocks).toFixed(2).padStart(7)}`
      : '';
    console.log(
      `${r.name.padEnd(44)} ${String(r.calls).padStart(7)} ${String(r.totalMs).padStart(9)} ${f(r.meanMs)} ${f(r.p50Ms)} ${f(r.p95Ms)}${perBlock}`,
    );
  }
}
