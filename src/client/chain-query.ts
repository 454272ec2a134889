/**
 * The one client of the svc contract's queries: gRPC-style `abci_query` (path
 * `/svc.<module>.v1.Query/<Method>`) as a CometBFT JSON-RPC POST, the request encoded and the
 * answer decoded with the contract types, typed by path (query-paths.ts).
 *
 * The answer has the generated proto-JSON shape (src/mappings/generated/proto-json.ts) because
 * decodeMessage converts with PROTO_JSON: every field present, defaults included, 64-bit integers
 * as decimal strings, enums as names. Amounts the contract declares as `string` default to ''
 * (answerAmount reads them).
 *
 * A query either answers its value or throws one of query-errors.ts: AbciQueryError (or its
 * QueryNotServed) when the app answers with an error code, ChainUnavailable when the chain could
 * not be asked. Only ChainUnavailable is retried: an error code is the chain's answer.
 */
import { decodeMessage, encodeMessage } from '../lib/contract';
import { bytesToHex } from '../lib/bytes';
import { queryMethodTypes, type QueryPath, type QueryRequest, type QueryResponse } from './query-paths';
import { answerError, ChainUnavailable, ChainUnreachable } from './query-errors';

export interface QueryOptions {
  /** the committed height to ask at; omitted or 0: the latest */
  height?: number;
  /** how long one request may take; omitted: no limit */
  timeoutMs?: number;
  /** further attempts after a ChainUnavailable; omitted: none */
  retries?: number;
  /** wait before the first retry, doubled for each next one */
  retryBackoffMs?: number;
}

export interface QueryAnswer<P extends QueryPath> {
  value: QueryResponse<P>;
  /** the height the app answered at */
  height: number;
}

interface AbciResponse {
  code?: number;
  codespace?: string;
  log?: string;
  value?: string | null;
  height?: string;
}

interface RpcAnswer {
  result?: { response?: AbciResponse };
  error?: { message?: string; data?: string };
}

/** Why a request got no answer: a timeout, or fetch's cause (ECONNREFUSED, …) rather than its bare "fetch failed". */
function transportFailure(e: unknown, timeoutMs: number | undefined): string {
  // duck-typed: errors from fetch may come from another realm (a test VM), where instanceof Error fails
  const err = e as { name?: unknown; message?: unknown; cause?: { message?: unknown } } | null;
  if (!err || typeof err.message !== 'string') return String(e);
  if (err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return typeof err.cause?.message === 'string' ? `${err.message}: ${err.cause.message}` : err.message;
}

/** An amount the contract declares as `string` (its proto default, zero, is ''). */
export function answerAmount(value: string): bigint {
  return BigInt(value || '0');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ChainQueryClient {
  private sent = 0;

  /** `defaults` apply to every query unless the call gives its own (a client bound to one height, say). */
  constructor(
    readonly rpcUrl: string,
    private readonly defaults: QueryOptions = {},
  ) {}

  /** abci_query requests sent so far, retries included */
  get queries(): number {
    return this.sent;
  }

  /** The decoded answer of `path`. */
  async query<P extends QueryPath>(
    path: P,
    request: QueryRequest<P>,
    options?: QueryOptions,
  ): Promise<QueryResponse<P>> {
    return (await this.queryWithHeight(path, request, options)).value;
  }

  /** The decoded answer of `path` and the height the app answered at. */
  async queryWithHeight<P extends QueryPath>(
    path: P,
    request: QueryRequest<P>,
    options?: QueryOptions,
  ): Promise<QueryAnswer<P>> {
    // an option given as undefined leaves the client's default in place
    const given = Object.entries(options ?? {}).filter(([, v]) => v !== undefined);
    const o: QueryOptions = { ...this.defaults, ...Object.fromEntries(given) };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.ask(path, request, o);
      } catch (e) {
        if (!(e instanceof ChainUnavailable) || attempt >= (o.retries ?? 0)) throw e;
        await sleep((o.retryBackoffMs ?? 0) * 2 ** attempt);
      }
    }
  }

  private async ask<P extends QueryPath>(path: P, request: QueryRequest<P>, o: QueryOptions): Promise<QueryAnswer<P>> {
    const types = queryMethodTypes(path);
    const data = encodeMessage(types.requestType, request as unknown as Record<string, unknown>);
    const response = await this.post(path, data, o);
    if (response.code) throw answerError(path, response.code, response.codespace ?? '', response.log ?? '');
    const height = Number(response.height ?? o.height ?? 0);
    if (o.height && height !== o.height) {
      throw new ChainUnavailable(`${path}: asked at height ${o.height}, answered at ${response.height}`);
    }
    const value = decodeMessage(types.responseType, Buffer.from(response.value ?? '', 'base64'));
    return { value: value as unknown as QueryResponse<P>, height };
  }

  private async post(path: string, data: Uint8Array, o: QueryOptions): Promise<AbciResponse> {
    const where = `abci_query ${path}${o.height ? ` at height ${o.height}` : ''}`;
    const params = { path, data: bytesToHex(data), ...(o.height ? { height: String(o.height) } : {}), prove: false };
    let answer: RpcAnswer;
    try {
      const r = await fetch(this.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.sent, method: 'abci_query', params }),
        signal: o.timeoutMs ? AbortSignal.timeout(o.timeoutMs) : undefined,
      });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      answer = (await r.json()) as RpcAnswer;
    } catch (e) {
      throw new ChainUnreachable(`${where}: ${transportFailure(e, o.timeoutMs)}`);
    }
    if (answer.error || !answer.result?.response) {
      throw new ChainUnavailable(`${where}: ${answer.error?.data ?? answer.error?.message ?? 'no response'}`);
    }
    return answer.result.response;
  }
}
