/**
 * CometBFT 0.38 RPC over HTTP (node:http): JSON-RPC 2.0 by POST to `/`
 * (single requests and batches) and the URI form `GET /<method>?<params>`,
 * with CometBFT's envelopes and error conventions
 * (rpc/jsonrpc/server/http_json_handler.go, http_uri_handler.go):
 *
 * - a batch answering one response is written as a single object;
 * - requests without an id are notifications and get no response;
 * - an unparsable body answers -32700 with HTTP 500; URI-form errors answer
 *   HTTP 500 with id -1; JSON-RPC errors ride on HTTP 200;
 * - unknown method -32601, bad params -32602, method failures -32603.
 *
 * Nothing a client sends can crash the server: every failure becomes an error response.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DevnetChain } from './chain';
import { RPC_METHODS, RpcContext } from './rpc-methods';
import { internalError, paramsFromJson, paramsFromQuery, RawParams, RpcCode, RpcError } from './rpc-params';

/** CometBFT's default rpc.max_body_bytes. */
export const MAX_BODY_BYTES = 1_000_000 * 2;
/** CometBFT's default timeout_broadcast_tx_commit. */
export const DEFAULT_BROADCAST_COMMIT_TIMEOUT_MS = 10_000;
const URI_REQUEST_ID = -1;

type RpcId = string | number;

export interface RpcServerOptions {
  host?: string;
  /** 0 (default): a free port */
  port?: number;
  broadcastCommitTimeoutMs?: number;
}

function errorResponse(id: RpcId | undefined, err: RpcError): string {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.data) error.data = err.data;
  return JSON.stringify(id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error });
}

function successResponse(id: RpcId, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`;
}

function asRpcError(e: unknown): RpcError {
  if (e instanceof RpcError) return e;
  return internalError(e instanceof Error ? e.message : String(e));
}

/** Runs one method call; the answer is the JSON text of `result`, or an RpcError. */
export async function callMethod(
  ctx: RpcContext,
  method: string,
  params: (argNames: readonly string[]) => RawParams,
): Promise<string> {
  const m = Object.prototype.hasOwnProperty.call(RPC_METHODS, method) ? RPC_METHODS[method] : undefined;
  if (!m) throw new RpcError(RpcCode.MethodNotFound, '');
  return m.run(ctx, params(m.argNames));
}

function isRpcId(id: unknown): id is RpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** One JSON-RPC request object → its response text, or undefined for a notification. */
async function handleJsonRpcRequest(ctx: RpcContext, request: unknown): Promise<string | undefined> {
  if (!request || typeof request !== 'object' || Array.isArray(request)) {
    return errorResponse(undefined, new RpcError(RpcCode.InvalidRequest, 'request must be an object'));
  }
  const { id, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
  if (id === undefined || id === null) return undefined;
  if (!isRpcId(id))
    return errorResponse(undefined, new RpcError(RpcCode.InvalidRequest, 'id must be a string or a number'));
  if (typeof method !== 'string') return errorResponse(id, new RpcError(RpcCode.MethodNotFound, ''));
  try {
    return successResponse(id, await callMethod(ctx, method, (names) => paramsFromJson(params, names)));
  } catch (e) {
    return errorResponse(id, asRpcError(e));
  }
}

async function handleJsonRpcBody(ctx: RpcContext, body: string): Promise<{ status: number; text: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    const err = new RpcError(RpcCode.ParseError, `error unmarshaling request: ${(e as Error).message}`);
    return { status: 500, text: errorResponse(undefined, err) };
  }
  const requests = Array.isArray(parsed) ? parsed : [parsed];
  const responses: string[] = [];
  for (const r of requests) {
    const response = await handleJsonRpcRequest(ctx, r);
    if (response !== undefined) responses.push(response);
  }
  if (responses.length === 0) return { status: 200, text: '' };
  return { status: 200, text: responses.length === 1 ? responses[0] : `[${responses.join(',')}]` };
}

async function handleUriRequest(
  ctx: RpcContext,
  method: string,
  query: URLSearchParams,
): Promise<{ status: number; text: string }> {
  if (!Object.prototype.hasOwnProperty.call(RPC_METHODS, method)) return { status: 404, text: '404 page not found\n' };
  try {
    return {
      status: 200,
      text: successResponse(URI_REQUEST_ID, await callMethod(ctx, method, (names) => paramsFromQuery(query, names))),
    };
  } catch (e) {
    return { status: 500, text: errorResponse(URI_REQUEST_ID, asRpcError(e)) };
  }
}

function endpointList(host: string): string {
  const links = Object.keys(RPC_METHODS)
    .sort()
    .map((m) => `<a href="//${host}/${m}">//${host}/${m}</a></br>`)
    .join('\n');
  return `<html><body><br>Available endpoints:<br>${links}</body></html>`;
}

function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function route(
  ctx: RpcContext,
  req: http.IncomingMessage,
): Promise<{ status: number; text: string; html?: boolean }> {
  const url = new URL(req.url ?? '/', 'http://devnet');
  if (url.pathname !== '/') return handleUriRequest(ctx, url.pathname.slice(1), url.searchParams);
  const body = req.method === 'POST' ? await readBody(req) : '';
  if (body === undefined) {
    return {
      status: 400,
      text: errorResponse(
        undefined,
        new RpcError(RpcCode.InvalidRequest, 'error reading request body: http: request body too large'),
      ),
    };
  }
  if (body.trim() === '') return { status: 200, text: endpointList(req.headers.host ?? 'localhost'), html: true };
  return handleJsonRpcBody(ctx, body);
}

export class DevnetRpcServer {
  private readonly server: http.Server;
  private readonly ctx: RpcContext;

  constructor(
    chain: DevnetChain,
    private readonly options: RpcServerOptions = {},
  ) {
    this.ctx = {
      chain,
      rpcAddress: '',
      broadcastCommitTimeoutMs: options.broadcastCommitTimeoutMs ?? DEFAULT_BROADCAST_COMMIT_TIMEOUT_MS,
    };
    this.server = http.createServer((req, res) => void this.serve(req, res));
    this.server.keepAliveTimeout = 5_000;
    this.server.on('clientError', (_err, socket) => socket.destroy());
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let out: { status: number; text: string; html?: boolean };
    try {
      out = await route(this.ctx, req);
    } catch (e) {
      out = { status: 500, text: errorResponse(undefined, asRpcError(e)) };
    }
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(out.status, { 'Content-Type': out.html ? 'text/html' : 'application/json' });
    res.end(out.text);
  }

  /** Listens (127.0.0.1 and a free port by default) and resolves with the base URL. */
  async listen(): Promise<string> {
    const host = this.options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.ctx.rpcAddress = `tcp://${host}:${this.port}`;
    return this.url;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    const host = this.options.host ?? '127.0.0.1';
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** Starts an RPC server for `chain`; returns it listening. */
export async function startRpcServer(chain: DevnetChain, options: RpcServerOptions = {}): Promise<DevnetRpcServer> {
  const server = new DevnetRpcServer(chain, options);
  await server.listen();
  return server;
}
