/**
 * EXPLAIN of exactly what the API runs: one request per endpoint through an in-process
 * app whose pool records every statement (text, values and how it was planned); each is
 * then explained and any sequential scan of a table of more than 10,000 rows is reported.
 * A statement planned once (rest-adapter/db/sql.ts PLANNED_ONCE) is explained as planned,
 * without its values (EXPLAIN (GENERIC_PLAN)), and compared with the plan for its values: a
 * different plan is reported, since a generic plan is only meant where the values cannot
 * change the plan.
 */
import type { AddressInfo } from 'net';
import { Pool, PoolClient } from 'pg';
import { createRestApp } from '../rest-adapter/app';
import type { Endpoint } from './endpoints';
import { SCHEMA } from './store';

/** A sequential scan of a table this small is the planner's right choice (assets, kinds, routes…). */
const SMALL_TABLE_ROWS = 10_000;

interface Recorded {
  endpoint: string;
  text: string;
  values: unknown[];
  generic: boolean;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, visit: (n: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

function recordingPool(base: Pool, sink: Recorded[], current: () => string): Pool {
  const pool = Object.create(base) as Pool;
  const genericClients = new WeakSet<PoolClient>();
  pool.connect = (async () => {
    const client: PoolClient = await base.connect();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    return new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') {
          return (config: unknown, ...rest: unknown[]) => {
            if (typeof config === 'string') {
              const mode = /plan_cache_mode = (\w+)/.exec(config)?.[1];
              if (mode) genericClients[mode === 'force_generic_plan' ? 'add' : 'delete'](target);
            } else if (typeof config === 'object' && config !== null && 'text' in config) {
              const c = config as { text: string; values?: unknown[] };
              sink.push({
                endpoint: current(),
                text: c.text,
                values: c.values ?? [],
                generic: genericClients.has(target),
              });
            }
            return query(config, ...rest);
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  }) as Pool['connect'];
  return pool;
}

export interface ExplainReport {
  statements: number;
  /** "endpoint: table (statement head)" for every sequential scan of a non-tiny table */
  seqScans: string[];
  /** indexes used, by name */
  indexes: Set<string>;
  /** statements per request, by endpoint (each is a database round trip) */
  perEndpoint: Map<string, number>;
  /** statements planned once */
  generic: number;
  /** "endpoint: statement head: generic plan ≠ plan for its values" for each that differs */
  genericDiffers: string[];
}

/** The plan's nodes, with the relation and index each reads, in order. */
function shape(plan: PlanNode): string {
  const nodes: string[] = [];
  walk(plan, (n) => nodes.push([n['Node Type'], n['Relation Name'], n['Index Name']].filter(Boolean).join(' ')));
  return nodes.join(' > ');
}

export async function explainEndpoints(databaseUrl: string, list: Endpoint[]): Promise<ExplainReport> {
  const base = new Pool({ connectionString: databaseUrl, max: 2 });
  base.on('error', () => undefined);
  const recorded: Recorded[] = [];
  let current = '';
  // no response cache: every request must reach the store; no height poller: it would be recorded too
  const app = createRestApp({
    pool: recordingPool(base, recorded, () => current),
    schema: SCHEMA,
    hrp: 'svc',
    responseCache: false,
    heightWatch: false,
  });
  const server = await new Promise<import('http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const e of list) {
      current = e.name;
      await (await fetch(url + e.next())).text();
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  const perEndpoint = new Map(list.map((e) => [e.name, recorded.filter((r) => r.endpoint === e.name).length]));
  const report: ExplainReport = {
    statements: recorded.length,
    seqScans: [],
    indexes: new Set(),
    perEndpoint,
    generic: recorded.filter((r) => r.generic).length,
    genericDiffers: [],
  };
  const client = await base.connect();
  try {
    await client.query(`SET search_path = "${SCHEMA}", public`);
    const sizes = await client.query<{ relname: string; rows: number }>(
      `SELECT c.relname, c.reltuples::float8 AS rows FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [SCHEMA],
    );
    const large = new Set(sizes.rows.filter((r) => r.rows > SMALL_TABLE_ROWS).map((r) => r.relname));
    const explain = async (text: string, values: unknown[]) =>
      (await client.query({ text, values })).rows[0]['QUERY PLAN'][0].Plan as PlanNode;
    for (const r of recorded) {
      const custom = await explain(`EXPLAIN (FORMAT JSON) ${r.text}`, r.values);
      const plan = r.generic ? await explain(`EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${r.text}`, []) : custom;
      const head = r.text.replace(/\s+/g, ' ').slice(0, 90);
      if (r.generic && shape(plan) !== shape(custom)) {
        report.genericDiffers.push(
          `${r.endpoint}: ${head}…\n    generic: ${shape(plan)}\n    custom:  ${shape(custom)}`,
        );
      }
      walk(plan, (n) => {
        if (n['Index Name']) report.indexes.add(`${n['Relation Name'] ?? ''}:${n['Index Name']}`);
        if (n['Node Type'] === 'Seq Scan' && n['Relation Name'] && large.has(n['Relation Name'])) {
          report.seqScans.push(`${r.endpoint}: ${n['Relation Name']} (${head}…)`);
        }
      });
    }
  } finally {
    client.release();
    await base.end();
  }
  return report;
}
