/**
 * The one logger shape every part logs through: a message and structured fields, at four levels,
 * plus what the process's own logger adds (src/runtime/logger.ts builds it). A part that needs only
 * some levels takes `Pick<Logger, …>`, so a test passes a plain object with those methods. Only a
 * type: the parts depend on no logging library, and the indexer bundle on nothing here.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  /** a failure: the error itself goes in `fields.error` */
  error(msg: string, fields?: LogFields): void;
  /** written whatever LOG_LEVEL is (as an info line): what a person who started the product must see, such as where it serves */
  notice(msg: string, fields?: LogFields): void;
  log(level: LogLevel, msg: string, fields?: LogFields): void;
  /** the same sink, another component name */
  child(component: string): Logger;
}

/** What the app services and the reconciler log through: the four levels. */
export type PartLogger = Pick<Logger, LogLevel>;
