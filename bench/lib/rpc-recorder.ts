/**
 * A loopback proxy in front of a CometBFT RPC endpoint that notes when each JSON-RPC call
 * arrived and was answered, with its method, its `height` parameter and, for `status`, the
 * height it reported: what a client (the SubQuery node) asked of the chain and when, without
 * touching the client. The hop adds well under a millisecond on loopback.
 */
import http from 'http';
import type { AddressInfo } from 'net';

export interface RpcCall {
  method: string;
  /** params.height, when the call names one */
  height?: number;
  /** `status` only: result.sync_info.latest_block_height */
  reported?: number;
  /** Date.now() when the request arrived and when its answer was written */
  at: number;
  answeredAt: number;
}

export interface RpcRecorder {
  url: string;
  calls: RpcCall[];
  close(): Promise<void>;
}

interface JsonRpcRequest {
  method?: string;
  params?: { height?: string | number };
}

export async function startRpcRecorder(target: string): Promise<RpcRecorder> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const calls: RpcCall[] = [];
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const text = Buffer.concat(body);
      let request: JsonRpcRequest = {};
      try {
        request = JSON.parse(text.toString('utf8')) as JsonRpcRequest;
      } catch {
        /* the URI form or not JSON: noted by path only */
      }
      const method = request.method ?? new URL(req.url ?? '/', 'http://x').pathname.slice(1);
      const height = request.params?.height === undefined ? undefined : Number(request.params.height);
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
          agent,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const call: RpcCall = { method, at, answeredAt: 0 };
            if (height !== undefined) call.height = height;
            if (method === 'status') {
              const m = /"latest_block_height":"(\d+)"/.exec(bytes.toString('utf8'));
              if (m) call.reported = Number(m[1]);
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(bytes, () => {
              call.answeredAt = Date.now();
              calls.push(call);
            });
          });
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
