/**
 * `npm run verify`: this deployment's proofs of indexing against another's (verify/compare.ts).
 *
 *   npm run verify -- --against http://other:3000        the other deployment's /v1 (rows: its /graphql)
 *   npm run verify -- --db postgres://user:pw@host/db    the other deployment's store
 *
 * This deployment is the store of DATABASE_URL (or DB_HOST…) and DB_SCHEMA, as for the other
 * processes, or `--base <http or postgres URL>`. Exit code 0 when the two agree at every common
 * height, 1 when they differ (the report names the first differing height, the entity types,
 * rows and fields), 2 when they could not be compared (bad arguments, unreachable, no proofs).
 * docs/indexer.md ("Proof of indexing") and docs/running.md ("Verify a deployment").
 */
import { storeConfig } from '../src/runtime/config';
import { verify, type VerifyResult } from '../verify/compare';
import { exitCodeOf, renderReport } from '../verify/report';
import { DeploymentSource, StoreSource, type ProofSource } from '../verify/sources';

export const USAGE = `usage: npm run verify -- (--against <URL> | --db <postgres URL>) [options]

  --against <URL>          the other deployment's base URL (its /v1; rows through <URL>/graphql)
  --db <postgres URL>      the other deployment's store (PostgreSQL), read directly
  --schema <name>          its schema (default: this deployment's, DB_SCHEMA or svc)
  --against-graphql <URL>  where the other deployment serves GraphQL (default <URL>/graphql)
  --base <URL>             this deployment as a base URL (http) or a store (postgres URL) instead of
                           DATABASE_URL / DB_HOST…; --base-graphql <URL> as --against-graphql
  --rows <n>               rows compared field by field per entity type (default 10)
  --json                   the result as one JSON object instead of the report
exit code: 0 agree, 1 differ, 2 not compared`;

export interface VerifyArgs {
  against?: string;
  againstGraphql?: string;
  db?: string;
  schema?: string;
  base?: string;
  baseGraphql?: string;
  rows: number;
  json: boolean;
}

export class UsageError extends Error {}

function urlArg(flag: string, v: string, protocols: string[]): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${flag}: not a URL: ${v}`);
  }
  if (!protocols.includes(u.protocol))
    throw new UsageError(`${flag}: expected ${protocols.join(' or ')} URL, got ${v}`);
  return v;
}

const HTTP = ['http:', 'https:'];
const PG = ['postgres:', 'postgresql:'];

export function parseArgs(argv: readonly string[]): VerifyArgs {
  const a: VerifyArgs = { rows: 10, json: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--against') a.against = urlArg(flag, value(), HTTP);
    else if (flag === '--against-graphql') a.againstGraphql = urlArg(flag, value(), HTTP);
    else if (flag === '--db') a.db = urlArg(flag, value(), PG);
    else if (flag === '--schema') a.schema = value();
    else if (flag === '--base') a.base = urlArg(flag, value(), [...HTTP, ...PG]);
    else if (flag === '--base-graphql') a.baseGraphql = urlArg(flag, value(), HTTP);
    else if (flag === '--rows') {
      a.rows = Number(value());
      if (!Number.isSafeInteger(a.rows) || a.rows < 0) throw new UsageError('--rows takes a non-negative integer');
    } else if (flag === '--json') a.json = true;
    else throw new UsageError(`unknown option ${flag}`);
  }
  if (!a.against === !a.db) throw new UsageError('give exactly one of --against <URL> and --db <postgres URL>');
  if (a.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(a.schema))
    throw new UsageError(`--schema: not a lower-case PostgreSQL identifier: ${a.schema}`);
  return a;
}

/** The two sides the arguments and the environment name. */
export function sourcesOf(args: VerifyArgs, env: NodeJS.ProcessEnv): [ProofSource, ProofSource] {
  let schema = args.schema;
  let base: ProofSource;
  if (args.base && /^https?:/.test(args.base)) base = new DeploymentSource(args.base, args.baseGraphql);
  else {
    const store = args.base
      ? { databaseUrl: args.base, schema: storeConfig({ DB_SCHEMA: env.DB_SCHEMA }).schema }
      : storeConfig(env);
    base = new StoreSource(store.databaseUrl, store.schema);
    schema ??= store.schema;
  }
  const other = args.db
    ? new StoreSource(args.db, schema ?? storeConfig({ DB_SCHEMA: env.DB_SCHEMA }).schema)
    : new DeploymentSource(args.against!, args.againstGraphql);
  return [base, other];
}

/** Runs verify as the command does; the exit code and what it printed. */
export async function runVerify(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let sources: [ProofSource, ProofSource];
  let args: VerifyArgs;
  try {
    args = parseArgs(argv);
    sources = sourcesOf(args, env);
  } catch (e) {
    err(`verify: ${e instanceof Error ? e.message : String(e)}`);
    if (e instanceof UsageError) err(USAGE);
    return 2;
  }
  let result: VerifyResult;
  try {
    result = await verify(sources[0], sources[1], { rowLimit: args.rows, progress: (l) => err(l) });
  } catch (e) {
    result = { outcome: 'cannot', reason: e instanceof Error ? e.message : String(e) };
  } finally {
    await Promise.all(sources.map((s) => s.close()));
  }
  const labels: [string, string] = [sources[0].label, sources[1].label];
  if (args.json) out(JSON.stringify({ a: labels[0], b: labels[1], ...result }));
  else for (const line of renderReport(result, labels)) out(line);
  return exitCodeOf(result);
}

if (require.main === module) {
  void runVerify(
    process.argv.slice(2),
    process.env,
    (l) => process.stdout.write(`${l}\n`),
    (l) => process.stderr.write(`${l}\n`),
  ).then((code) => process.exit(code));
}
