/**
 * A real local HTTP JSON-RPC stand-in of CometBFT for abci_query: each POST answered by a handler
 * (a JSON body, an HTTP status, or no answer at all), every request kept for the test to read.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import { encodeMessage } from '../../../src/lib/contract';

export interface RpcRequest {
  jsonrpc: string;
  id: number;
  method: string;
  params: { path: string; data: string; height: string; prove: boolean };
}

export interface Asked {
  method: string;
  contentType: string | undefined;
  body: RpcRequest;
}

/** Reply of the stand-in: a JSON body (status 200 unless given), or no answer at all. */
export type Reply = { json: unknown; status?: number } | 'hang';
export type Handler = (req: RpcRequest, n: number) => Reply;

export const servers: http.Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

export async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A JSON-RPC stand-in answering each POST with handler(request, index of the request). */
export async function standIn(handler: Handler): Promise<{ url: string; asked: Asked[] }> {
  const asked: Asked[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest;
      asked.push({ method: req.method ?? '', contentType: req.headers['content-type'], body });
      const reply = handler(body, asked.length - 1);
      if (reply === 'hang') return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.json));
    });
  });
  servers.push(server);
  return { url: await listen(server), asked };
}

/** A successful abci_query answer carrying `value` encoded as `typeName`. */
export function ok(
  req: RpcRequest,
  typeName: string,
  value: Record<string, unknown>,
  height = req.params.height,
): Reply {
  return {
    json: {
      jsonrpc: '2.0',
      id: req.id,
      result: {
        response: {
          code: 0,
          log: '',
          info: '',
          index: '0',
          key: null,
          value: Buffer.from(encodeMessage(typeName, value)).toString('base64'),
          proofOps: null,
          height,
          codespace: '',
        },
      },
    },
  };
}

/** An abci_query answer with an error code (the RPC call itself succeeds). */
export function fail(req: RpcRequest, codespace: string, code: number, log = 'failed'): Reply {
  return {
    json: {
      jsonrpc: '2.0',
      id: req.id,
      result: {
        response: { code, log, info: '', index: '0', key: null, value: null, proofOps: null, height: '0', codespace },
      },
    },
  };
}
