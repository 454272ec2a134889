/**
 * Where verify reads a deployment's proofs and rows: its store directly (PostgreSQL), or the
 * deployment as its users see it: /v1/status and /v1/blocks/{h} for the proofs, its GraphQL for
 * the writes log and the rows (the node keeps no history, so the rows are the current ones).
 */
import { Client, types as pgTypes } from 'pg';
import { escapeIdent, METADATA_KEY, selectMetadataValue, tablesIn } from '../src/store';
import { schemaModels, tableOf, type EntityModel } from './model';
import { fromColumns, fromGraphql, RAW_TEXT_OIDS, type StoredRow } from './values';

/** A height's proof as a deployment keeps it (BlockProof). */
export interface HeightProof {
  height: number;
  hash: string;
  /** '' where the deployment has no proof of the height before */
  previous: string;
  blockHash: string;
  entitiesRoot: string;
  roots: Record<string, string>;
}

/** {entity type: {id: leaf prefix}}: the rows a height wrote. */
export type WritesLog = Record<string, Record<string, string>>;

export interface ProofSource {
  /** how reports name it */
  readonly label: string;
  /** the indexed height (_metadata.lastProcessedHeight) */
  head(): Promise<number>;
  /** the lowest height with a proof, at most `upTo`; null when none */
  firstProven(upTo: number): Promise<number | null>;
  proof(height: number): Promise<HeightProof | null>;
  /** the writes log of a height; throws RowsUnavailable when this source cannot read it */
  writes(height: number): Promise<WritesLog | null>;
  /** the rows of `type` with these ids that the store holds now; throws RowsUnavailable likewise */
  rows(type: string, ids: readonly string[]): Promise<Map<string, StoredRow>>;
  /**
   * The first height in (from, to] whose proof is not chained to the one before (h-1's missing,
   * or `previous` not its hash), where a source can scan them all at once (a store); a source
   * without it is checked at each height verify probes.
   */
  firstBreak?(from: number, to: number): Promise<ChainBreak | null>;
  close(): Promise<void>;
}

export interface ChainBreak {
  height: number;
  /** h-1 has no proof, or h's previous is not h-1's hash */
  why: 'missing' | 'unchained';
}

/** A source that can name heights and types but not read rows (a deployment whose GraphQL does not answer). */
export class RowsUnavailable extends Error {}

function modelOf(type: string): EntityModel {
  const model = schemaModels().get(type);
  if (!model)
    throw new RowsUnavailable(
      `entity type ${type} is not in this checkout's schema.graphql (read its store with --db)`,
    );
  return model;
}

interface ProofRow {
  height: number;
  hash: string;
  previous: string;
  block_hash: string;
  entities_root: string;
  roots: string;
}

const proofOf = (r: ProofRow): HeightProof => ({
  height: Number(r.height),
  hash: r.hash,
  previous: r.previous,
  blockHash: r.block_hash,
  entitiesRoot: r.entities_root,
  roots: JSON.parse(r.roots) as Record<string, string>,
});

/** Keeps numeric and timestamp columns as the server's text (values.ts decodes them by field kind). */
const rawText = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    RAW_TEXT_OIDS.includes(oid)
      ? (v: string) => v
      : pgTypes.getTypeParser(oid, format)) as typeof pgTypes.getTypeParser,
};

/** A store: the node's schema in a PostgreSQL database, read-only. */
export class StoreSource implements ProofSource {
  readonly label: string;
  private readonly client: Client;
  private connected: Promise<void> | undefined;
  private readonly tables: ReturnType<typeof tablesIn>;
  private readonly schema: string;

  constructor(databaseUrl: string, schema: string) {
    const u = new URL(databaseUrl);
    u.password = '';
    this.label = `store ${u.toString()} (schema ${schema})`; // never the password
    this.client = new Client({
      connectionString: databaseUrl,
      types: rawText,
      options: '-c default_transaction_read_only=on -c statement_timeout=60000',
    });
    this.client.on('error', () => undefined);
    this.schema = schema;
    this.tables = tablesIn(schema);
  }

  private async result<R extends Record<string, unknown>>(text: string, values: unknown[] = []) {
    this.connected ??= this.client.connect().then(() => undefined);
    await this.connected;
    return this.client.query<R>(text, values);
  }

  private async query<R extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await this.result<R>(text, values)).rows;
  }

  async head(): Promise<number> {
    const rows = await this.query<{ value: unknown }>(
      selectMetadataValue(this.tables.metadata, METADATA_KEY.indexedHeight),
    );
    return Number(rows[0]?.value ?? 0);
  }

  async firstProven(upTo: number): Promise<number | null> {
    const rows = await this.query<{ h: number | null }>(
      `SELECT min(height) AS h FROM ${this.tables.blockProofs} WHERE height <= $1`,
      [upTo],
    );
    return rows[0]?.h ?? null;
  }

  async firstBreak(from: number, to: number): Promise<ChainBreak | null> {
    const rows = await this.query<{ height: number; missing: boolean }>(
      `SELECT p.height, q.hash IS NULL AS missing FROM ${this.tables.blockProofs} p
         LEFT JOIN ${this.tables.blockProofs} q ON q.height = p.height - 1
        WHERE p.height > $1 AND p.height <= $2 AND (q.hash IS NULL OR p.previous <> q.hash)
        ORDER BY p.height LIMIT 1`,
      [from, to],
    );
    const r = rows[0];
    return r ? { height: Number(r.height), why: r.missing ? 'missing' : 'unchained' } : null;
  }

  async proof(height: number): Promise<HeightProof | null> {
    const rows = await this.query<ProofRow & Record<string, unknown>>(
      `SELECT height, hash, previous, block_hash, entities_root, roots FROM ${this.tables.blockProofs} WHERE id = $1`,
      [String(height)],
    );
    return rows[0] ? proofOf(rows[0]) : null;
  }

  async writes(height: number): Promise<WritesLog | null> {
    const rows = await this.query<{ writes: string }>(`SELECT writes FROM ${this.tables.blockProofs} WHERE id = $1`, [
      String(height),
    ]);
    return rows[0] ? (JSON.parse(rows[0].writes) as WritesLog) : null;
  }

  /** Read by the store's own columns and types: a store of another schema version (an upgrade) reads too. */
  async rows(type: string, ids: readonly string[]): Promise<Map<string, StoredRow>> {
    const r = await this.result(
      `SELECT * FROM ${escapeIdent(this.schema)}.${escapeIdent(tableOf(type))} WHERE id = ANY($1)`,
      [ids],
    );
    const oids = new Map(r.fields.map((f) => [f.name, f.dataTypeID]));
    const model = schemaModels().get(type);
    return new Map(r.rows.map((row) => [String(row.id), fromColumns(model, row, oids)]));
  }

  async close(): Promise<void> {
    if (this.connected) await this.client.end().catch(() => undefined);
  }
}

/** The proof extension of /v1 answers (openapi.yaml `Proof`). */
interface ApiProof {
  height: number;
  hash: string;
  previous: string | null;
  block_hash: string;
  entities_root: string;
  roots: Record<string, string>;
}

const REQUEST_TIMEOUT_MS = 30_000;
/** Ids per GraphQL request: one page of the list the filter selects. */
const GRAPHQL_PAGE = 50;

/** A deployment over HTTP: its /v1 (proofs) and its GraphQL (writes log and rows). */
export class DeploymentSource implements ProofSource {
  readonly label: string;
  private readonly base: string;
  private readonly graphqlUrl: string;

  constructor(baseUrl: string, graphqlUrl?: string) {
    this.base = baseUrl.replace(/\/+$/, '');
    this.graphqlUrl = graphqlUrl ?? `${this.base}/graphql`;
    this.label = `deployment ${this.base}`;
  }

  private async getJson<T>(p: string): Promise<{ status: number; body: T | undefined }> {
    const r = await fetch(this.base + p, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await r.text();
    if (r.status !== 200 && r.status !== 404)
      throw new Error(`${this.base}${p}: HTTP ${r.status} ${text.slice(0, 200)}`);
    return { status: r.status, body: r.status === 200 ? (JSON.parse(text) as T) : undefined };
  }

  async head(): Promise<number> {
    const { body } = await this.getJson<{ indexed_height: number }>('/v1/status');
    if (!body) throw new Error(`${this.base}/v1/status: not found (is this a deployment's /v1 base URL?)`);
    return body.indexed_height;
  }

  async proof(height: number): Promise<HeightProof | null> {
    const { body } = await this.getJson<{ proof?: ApiProof | null }>(`/v1/blocks/${height}`);
    if (!body) return null;
    if (body.proof === undefined)
      throw new Error(
        `${this.base}/v1/blocks/${height}: the answer has no proof field (a deployment older than the proof)`,
      );
    const p = body.proof;
    return p
      ? {
          height: p.height,
          hash: p.hash,
          previous: p.previous ?? '',
          blockHash: p.block_hash,
          entitiesRoot: p.entities_root,
          roots: p.roots,
        }
      : null;
  }

  /** Proofs are kept from a first height on: the lowest one is found by bisection. */
  async firstProven(upTo: number): Promise<number | null> {
    if (upTo < 1 || !(await this.proof(upTo))) return null;
    if (await this.proof(1)) return 1;
    let [lo, hi] = [1, upTo]; // no proof at lo, a proof at hi
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.proof(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  private async graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    let r: Response;
    try {
      r = await fetch(this.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (e) {
      throw new RowsUnavailable(`${this.graphqlUrl}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const text = await r.text();
    let body: { data?: T; errors?: { message: string }[] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new RowsUnavailable(`${this.graphqlUrl}: HTTP ${r.status}, not a GraphQL answer: ${text.slice(0, 120)}`);
    }
    if (body.errors?.length || !body.data)
      throw new RowsUnavailable(
        `${this.graphqlUrl}: ${body.errors?.map((e) => e.message).join('; ') ?? `HTTP ${r.status}`}`,
      );
    return body.data;
  }

  async writes(height: number): Promise<WritesLog | null> {
    const data = await this.graphql<{ blockProofs: { nodes: { writes: string }[] } }>(
      'query ($id: String!) { blockProofs(filter: { id: { equalTo: $id } }, first: 1) { nodes { writes } } }',
      { id: String(height) },
    );
    const node = data.blockProofs.nodes[0];
    return node ? (JSON.parse(node.writes) as WritesLog) : null;
  }

  async rows(type: string, ids: readonly string[]): Promise<Map<string, StoredRow>> {
    const model = modelOf(type);
    const fields = model.fields.map((f) => f.name).join(' ');
    const out = new Map<string, StoredRow>();
    for (let i = 0; i < ids.length; i += GRAPHQL_PAGE) {
      const page = ids.slice(i, i + GRAPHQL_PAGE);
      const data = await this.graphql<Record<string, { nodes: Record<string, unknown>[] }>>(
        `query ($ids: [String!]) { rows: ${model.collection}(filter: { id: { in: $ids } }, first: ${page.length}) { nodes { ${fields} } } }`,
        { ids: page },
      );
      for (const node of data.rows.nodes) out.set(String(node.id), fromGraphql(model, node));
    }
    return out;
  }

  async close(): Promise<void> {}
}
