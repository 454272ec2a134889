/**
 * Parameter decoding of the CometBFT RPC, for both request forms:
 * JSON-RPC (params by name or position; int64 as number or string, []byte as
 * base64, HexBytes as hex) and URI GET (`/block?height=5`: integers bare,
 * strings quoted, bytes as 0x-hex or a quoted string), as
 * rpc/jsonrpc/server/http_uri_handler.go and cmtjson accept them.
 */
import { fromBase64, fromHex } from '@cosmjs/encoding';
import { utf8Encode } from '../../src/lib/bytes';

/** JSON-RPC error codes of CometBFT's server. */
export const RpcCode = Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
});

const RPC_MESSAGES: Record<number, string> = {
  [-32700]: 'Parse error. Invalid JSON',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
};

export class RpcError extends Error {
  constructor(
    readonly code: number,
    readonly data: string,
  ) {
    super(RPC_MESSAGES[code] ?? 'Server error');
    this.name = 'RpcError';
  }
}

/** A method's failure as CometBFT reports it: -32603 with the error text as data. */
export function internalError(data: string): RpcError {
  return new RpcError(RpcCode.Internal, data);
}

function invalidParam(name: string, why: string): RpcError {
  return new RpcError(RpcCode.InvalidParams, `error converting json params to arguments: ${name}: ${why}`);
}

/** Raw parameter values of one call, by name. `uri` marks the GET form's text values. */
export interface RawParams {
  values: Map<string, unknown>;
  uri: boolean;
}

export function paramsFromJson(params: unknown, argNames: readonly string[]): RawParams {
  const values = new Map<string, unknown>();
  if (params === undefined || params === null) return { values, uri: false };
  if (Array.isArray(params)) {
    if (params.length > argNames.length)
      throw new RpcError(RpcCode.InvalidParams, `expected at most ${argNames.length} params, got ${params.length}`);
    params.forEach((v, i) => values.set(argNames[i], v));
  } else if (typeof params === 'object') {
    for (const [k, v] of Object.entries(params as Record<string, unknown>)) if (argNames.includes(k)) values.set(k, v);
  } else {
    throw new RpcError(RpcCode.InvalidParams, 'params must be an object or an array');
  }
  return { values, uri: false };
}

export function paramsFromQuery(query: URLSearchParams, argNames: readonly string[]): RawParams {
  const values = new Map<string, unknown>();
  for (const name of argNames) {
    const v = query.get(name);
    if (v !== null && v !== '') values.set(name, v);
  }
  return { values, uri: true };
}

const INT_RE = /^-?[0-9]+$/;
const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

function unquote(s: string): string | undefined {
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try {
      const v = JSON.parse(s);
      return typeof v === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** int64 parameter; undefined when absent. */
export function intParam(p: RawParams, name: string): number | undefined {
  const raw = p.values.get(name);
  if (raw === undefined || raw === null) return undefined;
  let text: string | undefined;
  if (typeof raw === 'number') text = Number.isInteger(raw) ? String(raw) : undefined;
  else if (typeof raw === 'string') text = p.uri ? (unquote(raw) ?? raw) : raw;
  if (text === undefined || !INT_RE.test(text) || !Number.isSafeInteger(Number(text)))
    throw invalidParam(name, `invalid integer ${JSON.stringify(raw)}`);
  return Number(text);
}

export function boolParam(p: RawParams, name: string): boolean {
  const raw = p.values.get(name);
  if (raw === undefined || raw === null) return false;
  if (typeof raw === 'boolean') return raw;
  if (p.uri && (raw === 'true' || raw === 'false')) return raw === 'true';
  throw invalidParam(name, `invalid boolean ${JSON.stringify(raw)}`);
}

export function stringParam(p: RawParams, name: string): string | undefined {
  const raw = p.values.get(name);
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw invalidParam(name, 'expected a string');
  if (!p.uri) return raw;
  if (/^0x/i.test(raw)) return Buffer.from(hexBody(name, raw)).toString('utf8');
  return unquote(raw) ?? raw;
}

function hexBody(name: string, raw: string): Uint8Array {
  const body = raw.slice(2);
  if (!HEX_RE.test(body)) throw invalidParam(name, 'invalid hex');
  return fromHex(body);
}

function uriBytes(name: string, raw: string): Uint8Array {
  if (/^0x/i.test(raw)) return hexBody(name, raw);
  const quoted = unquote(raw);
  if (quoted !== undefined) return utf8Encode(quoted);
  throw invalidParam(name, 'bytes must be 0x-hex or a quoted string');
}

const B64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** []byte parameter: base64 in JSON-RPC. */
export function bytesParam(p: RawParams, name: string): Uint8Array | undefined {
  const raw = p.values.get(name);
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw invalidParam(name, 'expected a string');
  if (p.uri) return uriBytes(name, raw);
  if (!B64_RE.test(raw)) throw invalidParam(name, 'invalid base64');
  return fromBase64(raw);
}

/** HexBytes parameter (abci_query data): hex in JSON-RPC. */
export function hexBytesParam(p: RawParams, name: string): Uint8Array | undefined {
  const raw = p.values.get(name);
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw invalidParam(name, 'expected a string');
  if (p.uri) return uriBytes(name, raw);
  const body = /^0x/i.test(raw) ? raw.slice(2) : raw;
  if (!HEX_RE.test(body)) throw invalidParam(name, 'invalid hex');
  return fromHex(body);
}

/**
 * A 32-byte hash parameter (tx, block_by_hash): base64 as CometBFT's []byte,
 * or 64 hex characters, which people paste from explorers.
 */
export function hashParam(p: RawParams, name: string): Uint8Array {
  const raw = p.values.get(name);
  if (typeof raw === 'string' && !p.uri) {
    const hex = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(raw);
    if (B64_RE.test(raw)) {
      const bytes = fromBase64(raw);
      if (bytes.length === 32) return bytes;
    }
    if (hex) return fromHex(hex[1]);
  }
  const bytes = bytesParam(p, name);
  if (!bytes) throw invalidParam(name, 'required');
  return bytes;
}
