/**
 * gRPC-style ABCI queries of the svc contract over CometBFT RPC
 * (`abci_query` with path `/svc.<module>.v1.Query/<Method>`), encoding the
 * request and decoding the response as proto-JSON with the contract types.
 */
import * as protobuf from 'protobufjs';
import { Comet38Client, type CometClient } from '@cosmjs/tendermint-rpc';
import { contractRoot, decodeMessage, encodeMessage } from '../lib/contract';

/** A query answered with a non-zero code (the app's error). */
export class AbciQueryError extends Error {
  constructor(
    readonly path: string,
    readonly code: number,
    readonly codespace: string,
    readonly log: string,
  ) {
    super(`abci_query ${path} failed with ${codespace}/${code}: ${log}`);
    this.name = 'AbciQueryError';
  }
}

export interface AbciQueryResult<T = Record<string, unknown>> {
  /** proto-JSON of the response message */
  value: T;
  /** the height the app answered at */
  height: number;
}

const QUERY_PATH = /^\/([A-Za-z0-9_.]+)\/([A-Za-z0-9_]+)$/;

/** Request and response type names of a query path, from the contract's service definitions. */
export function queryMethodTypes(path: string): { requestType: string; responseType: string } {
  const m = QUERY_PATH.exec(path);
  const service = m ? contractRoot.lookup(m[1]) : null;
  const method = service instanceof protobuf.Service ? service.methods[m![2]] : undefined;
  if (!method) throw new Error(`unknown query path ${path}`);
  method.resolve();
  return {
    requestType: method.resolvedRequestType!.fullName.slice(1),
    responseType: method.resolvedResponseType!.fullName.slice(1),
  };
}

const clients = new Map<string, Promise<CometClient>>();

/** One Comet 0.38 client per URL, reused across queries. */
function cometClient(target: string | CometClient): Promise<CometClient> {
  if (typeof target !== 'string') return Promise.resolve(target);
  let client = clients.get(target);
  if (!client) {
    client = Comet38Client.connect(target);
    clients.set(target, client);
    client.catch(() => clients.delete(target));
  }
  return client;
}

/**
 * Runs `path` with `request` (proto-JSON of `requestType`) at `height`
 * (omitted or 0: latest) and decodes the response with the contract's
 * response type for that path. Throws AbciQueryError on a non-zero code.
 */
export async function abciQuery<T = Record<string, unknown>>(
  target: string | CometClient,
  path: string,
  requestType: string,
  request: Record<string, unknown>,
  height?: number,
): Promise<AbciQueryResult<T>> {
  const types = queryMethodTypes(path);
  if (requestType !== types.requestType) throw new Error(`${path} takes ${types.requestType}, not ${requestType}`);
  const client = await cometClient(target);
  const response = await client.abciQuery({ path, data: encodeMessage(requestType, request), height, prove: false });
  if (response.code) throw new AbciQueryError(path, response.code, response.codespace ?? '', response.log ?? '');
  return { value: decodeMessage(types.responseType, response.value) as T, height: response.height ?? 0 };
}
