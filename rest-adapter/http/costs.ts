/**
 * What a /v1 request costs, in units of a client's budget (src/http/fair-share.ts), known from the
 * request alone so that a request over budget is refused before any work:
 *
 *   1                       any answer: a point read (a tx, a block, an asset, the status)
 *   1 + limit / 10          a page of a list (the `limit` asked, else the list's default)
 *   1 + limit / 5           a page of whole txs (/v1/txs, /v1/stats: each row carries its messages and events)
 *   1                       opening /v1/stream (its replay is charged as it reads, stream/route.ts)
 *
 * The lists and their default sizes are read from openapi.yaml (every GET with a `limit`
 * parameter), so a new list is priced as a list without a change here. The charge is settled
 * by the answer's status: a 304 costs 0.1, a refused request at most 1.
 */
import type { IncomingMessage } from 'http';
import { parse as parseYaml } from 'yaml';
import { MAX_LIMIT } from '../paging/limits';

/** Lists whose rows are whole txs. */
const TX_LISTS = new Set(['/v1/txs', '/v1/stats']);

interface ListCost {
  re: RegExp;
  defaultLimit: number;
  /** units per row */
  perRow: number;
}

interface Parameter {
  name?: string;
  in?: string;
  $ref?: string;
  schema?: { default?: unknown };
}

type Document = {
  paths: Record<string, { get?: { parameters?: Parameter[] } }>;
  components?: { parameters?: Record<string, Parameter> };
};

function resolve(doc: Document, p: Parameter): Parameter {
  if (!p.$ref) return p;
  return doc.components?.parameters?.[p.$ref.replace('#/components/parameters/', '')] ?? {};
}

function templateRe(template: string): RegExp {
  const source = template
    .split(/\{[A-Za-z_][A-Za-z0-9_]*\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}$`);
}

/** The cost of a /v1 request, from the lists of `document` (openapi.yaml's text). */
export function restCosts(document: string): (req: IncomingMessage) => number {
  const doc = parseYaml(document) as Document;
  const lists: ListCost[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const limit = (item.get?.parameters ?? []).map((p) => resolve(doc, p)).find((p) => p.name === 'limit');
    if (!limit || limit.in !== 'query') continue;
    const fallback = limit.schema?.default;
    lists.push({
      re: templateRe(template),
      defaultLimit: typeof fallback === 'number' ? fallback : MAX_LIMIT,
      perRow: TX_LISTS.has(template) ? 1 / 5 : 1 / 10,
    });
  }
  return (req) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const list = lists.find((l) => l.re.test(path));
    if (!list) return 1;
    const asked = q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('limit');
    const n = asked !== null && /^[0-9]{1,3}$/.test(asked) ? Number(asked) : list.defaultLimit;
    return 1 + Math.min(MAX_LIMIT, Math.max(1, n)) * list.perRow;
  };
}
