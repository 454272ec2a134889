/**
 * The node prints JSON lines (--output-fmt=json): {level, category, message, ...}. Its info
 * lines are chatty, so they go to debug; warnings and errors keep their level. Lines known
 * to be harmless offline are demoted.
 */
import type { Logger, LogLevel } from '../src/runtime/logger';

interface NodeLine {
  level?: string;
  category?: string;
  message?: string;
}

const LEVELS: Record<string, LogLevel> = {
  trace: 'debug',
  debug: 'debug',
  info: 'debug',
  warn: 'warn',
  error: 'error',
  fatal: 'error',
};

/** docs/indexer.md ("Running the node"): offline, the GitHub dictionary lookup fails with an ERROR and nothing else is affected. */
const HARMLESS = [/dictionary/i, /network-config|raw\.githubusercontent|github/i, /does not support SSL/i];

function parse(line: string): NodeLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as NodeLine;
  } catch {
    return undefined;
  }
}

export function forwardNodeLine(line: string, log: Logger): void {
  const parsed = parse(line);
  if (!parsed) return log.debug(line);
  const message = parsed.message ?? line;
  let level = LEVELS[parsed.level ?? 'info'] ?? 'info';
  if (level !== 'debug' && HARMLESS.some((re) => re.test(message))) level = 'debug';
  log.log(level, message, { category: parsed.category });
}
