/**
 * Settings as tables. A row names its environment variable, its default, its bounds and what it
 * does; a table has the shape of the settings object it gives, so each row sits where its value
 * goes. The parsers (`readSetting`), the defaults (`defaultsOf`), the variable lists
 * (`variablesOf`) and the documentation's tables (docs/running.md, docs/app-services.md, checked by
 * tests/unit/runtime/settings-docs.test.ts) all come from the rows, so a variable's name, default and
 * bounds are written once. A bad value is a ConfigError naming the variable.
 */
import { ConfigError } from './errors';

export type Env = Readonly<Record<string, string | undefined>>;

interface Described {
  /** the environment variable */
  env: string;
  /** what it does, as the documentation's tables say it (Markdown) */
  description: string;
}

/** A whole number from `min` to `max`. */
export interface IntegerSetting extends Described {
  kind: 'integer';
  default: number;
  min: number;
  max: number;
}

/** A whole number of seconds from `min` to `max`; the setting holds it in milliseconds. */
export interface SecondsSetting extends Described {
  kind: 'seconds';
  /** in seconds, as the variable is written */
  default: number;
  min: number;
  max: number;
}

/** A decimal number from `min` to `max`. */
export interface DecimalSetting extends Described {
  kind: 'decimal';
  default: number;
  min: number;
  max: number;
}

/** A whole number of base units (bigint) from `min` to `max`. */
export interface BigintSetting extends Described {
  kind: 'bigint';
  default: bigint;
  min: bigint;
  max: bigint;
}

/** `true` or `false`. */
export interface FlagSetting extends Described {
  kind: 'flag';
  default: boolean;
}

/** One of a few words (compared lower-case). */
export interface ChoiceSetting<T extends string = string> extends Described {
  kind: 'choice';
  default: T;
  choices: readonly T[];
}

/** A setting its reader checks in its own way (a URL, a schema name, a key, a list, a default that depends). */
export interface SpecialSetting<T = unknown> extends Described {
  kind: 'special';
  /** undefined: unset unless the reader fills it in */
  default: T;
  /** the default as the variable list shows it */
  shown: string;
  /** the default as the documentation's tables show it (Markdown) */
  documented: string;
}

export type NumberSetting = IntegerSetting | SecondsSetting | DecimalSetting;
export type Setting = NumberSetting | BigintSetting | FlagSetting | ChoiceSetting | SpecialSetting;

export const integer = (env: string, dflt: number, min: number, max: number, description: string): IntegerSetting => ({
  kind: 'integer',
  env,
  default: dflt,
  min,
  max,
  description,
});

export const seconds = (env: string, dflt: number, min: number, max: number, description: string): SecondsSetting => ({
  kind: 'seconds',
  env,
  default: dflt,
  min,
  max,
  description,
});

export const decimal = (env: string, dflt: number, min: number, max: number, description: string): DecimalSetting => ({
  kind: 'decimal',
  env,
  default: dflt,
  min,
  max,
  description,
});

export const bigint = (env: string, dflt: bigint, min: bigint, max: bigint, description: string): BigintSetting => ({
  kind: 'bigint',
  env,
  default: dflt,
  min,
  max,
  description,
});

export const flag = (env: string, dflt: boolean, description: string): FlagSetting => ({
  kind: 'flag',
  env,
  default: dflt,
  description,
});

export const choice = <T extends string>(
  env: string,
  dflt: T,
  choices: readonly T[],
  description: string,
): ChoiceSetting<T> => ({ kind: 'choice', env, default: dflt, choices, description });

export const special = <T>(
  env: string,
  dflt: T,
  shown: string,
  documented: string,
  description: string,
): SpecialSetting<T> => ({ kind: 'special', env, default: dflt, shown, documented, description });

export type SettingsTable = { readonly [key: string]: Setting | SettingsTable };

const isSetting = (x: Setting | SettingsTable): x is Setting => typeof x.kind === 'string' && typeof x.env === 'string';

/** Every row of a table, in its order. */
export function settingRows(table: SettingsTable): Setting[] {
  return Object.values(table).flatMap((x) => (isSetting(x) ? [x] : settingRows(x)));
}

/** The value a row gives when its variable is unset (seconds become milliseconds). */
export function defaultOf(row: Setting): unknown {
  return row.kind === 'seconds' ? row.default * 1000 : row.default;
}

/** The table's defaults in its shape; rows with no default (unset unless the reader fills them in) left out. */
export function defaultsOf(table: SettingsTable): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, x] of Object.entries(table)) {
    const value = isSetting(x) ? defaultOf(x) : defaultsOf(x);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Every variable of a table with its default as the variable list shows it. */
export function variablesOf(table: SettingsTable): Record<string, string> {
  return Object.fromEntries(
    settingRows(table).map((row) => [row.env, row.kind === 'special' ? row.shown : String(row.default)]),
  );
}

/** A row's default as the documentation's tables show it (Markdown). */
export function documentedDefault(row: Setting): string {
  return row.kind === 'special' ? row.documented : `\`${String(row.default)}\``;
}

/** A variable's value, trimmed; undefined when unset or blank. */
export function envValue(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** A whole number from `min` to `max` (`fallback` when unset), for a variable a special row names. */
export function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = envValue(env, name);
  if (raw === undefined) return fallback;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw new ConfigError(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function readDecimal(env: Env, row: DecimalSetting): number {
  const raw = envValue(env, row.env);
  if (raw === undefined) return row.default;
  const n = /^[0-9]+(\.[0-9]+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= row.min && n <= row.max))
    throw new ConfigError(row.env, `must be a number from ${row.min} to ${row.max}, got "${raw}"`);
  return n;
}

function readBigint(env: Env, row: BigintSetting): bigint {
  const raw = envValue(env, row.env);
  if (raw === undefined) return row.default;
  const n = /^[0-9]{1,30}$/.test(raw) ? BigInt(raw) : -1n;
  if (n < row.min || n > row.max)
    throw new ConfigError(row.env, `must be an integer from ${row.min} to ${row.max}, got "${raw}"`);
  return n;
}

function readChoice<T extends string>(env: Env, row: ChoiceSetting<T>): T {
  const raw = envValue(env, row.env)?.toLowerCase();
  if (raw === undefined) return row.default;
  if (!(row.choices as readonly string[]).includes(raw))
    throw new ConfigError(row.env, `must be one of ${row.choices.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** A row's value from the environment, or its default when unset; a ConfigError naming the variable when bad. */
export function readSetting(env: Env, row: NumberSetting): number;
export function readSetting(env: Env, row: BigintSetting): bigint;
export function readSetting(env: Env, row: FlagSetting): boolean;
export function readSetting<T extends string>(env: Env, row: ChoiceSetting<T>): T;
export function readSetting(env: Env, row: Exclude<Setting, SpecialSetting>): unknown {
  switch (row.kind) {
    case 'integer':
      return readInteger(env, row.env, row.default, row.min, row.max);
    case 'seconds':
      return readInteger(env, row.env, row.default, row.min, row.max) * 1000;
    case 'decimal':
      return readDecimal(env, row);
    case 'bigint':
      return readBigint(env, row);
    case 'flag':
      return (
        readChoice(env, { ...row, kind: 'choice', default: row.default ? 'true' : 'false', choices: FLAG }) === 'true'
      );
    case 'choice':
      return readChoice(env, row);
  }
}

const FLAG = ['true', 'false'] as const;

/** A row's value with its bounds but another default (a value the reader knows only at run time). */
export function readSettingOr(env: Env, row: IntegerSetting, fallback: number): number {
  return readInteger(env, row.env, fallback, row.min, row.max);
}

type ValueOf<R> = R extends NumberSetting
  ? number
  : R extends BigintSetting
    ? bigint
    : R extends FlagSetting
      ? boolean
      : R extends ChoiceSetting<infer T>
        ? T
        : never;

/** The values a table reads itself: every row but the special ones, in the table's shape. */
export type SettingsOf<T> = {
  -readonly [K in keyof T as T[K] extends SpecialSetting ? never : K]: T[K] extends Setting
    ? ValueOf<T[K]>
    : SettingsOf<T[K]>;
};

/** Every row of a table but the special ones (their readers check them in their own way) read from the environment. */
export function readSettings<T extends SettingsTable>(env: Env, table: T): SettingsOf<T> {
  const out: Record<string, unknown> = {};
  for (const [key, x] of Object.entries(table)) {
    if (!isSetting(x)) out[key] = readSettings(env, x);
    else if (x.kind !== 'special') out[key] = readSetting(env, x as NumberSetting);
  }
  return out as SettingsOf<T>;
}
