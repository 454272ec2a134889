/**
 * Structured logs of `npm start`: one JSON object per line (time, level, component, msg,
 * fields) for machines, or an aligned, coloured line for a terminal. Every component
 * (launcher, postgres, devnet, node, http) logs through a child logger.
 */
import type { LogFields, Logger, LogLevel } from '../lib/logger';

export type { LogFields, Logger, LogLevel } from '../lib/logger';
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  format: LogFormat;
  level: LogLevel;
  /** default: process.stdout */
  write?: (text: string) => void;
  /** ANSI colours in pretty mode (default: stdout is a TTY) */
  color?: boolean;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const COLOR: Record<LogLevel, string> = { debug: '\x1b[90m', info: '\x1b[36m', warn: '\x1b[33m', error: '\x1b[31m' };
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';

/** Errors become their message (and stack at debug); everything else stays as is. */
function plain(value: unknown): unknown {
  if (value instanceof Error) return value.message;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function jsonLine(time: Date, level: LogLevel, component: string, msg: string, fields: LogFields): string {
  const record: LogFields = { time: time.toISOString(), level, component, msg };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) record[k] = plain(v);
  return `${JSON.stringify(record)}\n`;
}

function prettyValue(v: unknown): string {
  const p = plain(v);
  const s = typeof p === 'string' ? p : JSON.stringify(p);
  return /[\s"=]/.test(s) ? JSON.stringify(s) : s;
}

function prettyLine(
  time: Date,
  level: LogLevel,
  component: string,
  msg: string,
  fields: LogFields,
  color: boolean,
): string {
  const clock = time.toISOString().slice(11, 19);
  const extras = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${prettyValue(v)}`)
    .join(' ');
  const lvl = level.toUpperCase().padEnd(5);
  const comp = component.padEnd(8);
  if (!color) return `${clock} ${lvl} ${comp} ${msg}${extras ? `  ${extras}` : ''}\n`;
  return `${DIM}${clock}${RESET} ${COLOR[level]}${lvl}${RESET} ${DIM}${comp}${RESET} ${msg}${extras ? `  ${DIM}${extras}${RESET}` : ''}\n`;
}

export function createLogger(options: LoggerOptions, component = 'launcher'): Logger {
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const color = options.color ?? Boolean(process.stdout.isTTY);
  const min = RANK[options.level];
  const emit = (level: LogLevel, msg: string, fields: LogFields) => {
    const now = new Date();
    write(
      options.format === 'json'
        ? jsonLine(now, level, component, msg, fields)
        : prettyLine(now, level, component, msg, fields, color),
    );
  };
  const log = (level: LogLevel, msg: string, fields: LogFields = {}) => {
    if (RANK[level] >= min) emit(level, msg, fields);
  };
  return {
    debug: (msg, fields) => log('debug', msg, fields),
    info: (msg, fields) => log('info', msg, fields),
    warn: (msg, fields) => log('warn', msg, fields),
    error: (msg, fields) => log('error', msg, fields),
    notice: (msg, fields = {}) => emit('info', msg, fields),
    log,
    child: (name) => createLogger({ ...options, write, color }, name),
  };
}
