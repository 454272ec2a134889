/** The devnet the store was built from, as ground truth: contract queries and raw blocks over RPC. */
import { sha256 } from '@noble/hashes/sha2';
import { ChainQueryClient, type QueryPath, type QueryRequest } from '../../../src/client';
import { devnetRpc } from './api';

/** A contract query (proto-JSON in and out) at the latest height. */
export async function chainQuery<
  T = Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are asserted field by field
>(url: string, path: QueryPath, request: Record<string, unknown>): Promise<T> {
  return (await new ChainQueryClient(url).query(path, request as unknown as QueryRequest<QueryPath>)) as T;
}

/** Consensus hashes of every tx of every block 1..height, as the chain computes them (sha256 of the raw tx). */
export async function chainTxHashes(
  url: string,
  height: number,
): Promise<{ hash: string; height: number; txIndex: number }[]> {
  const out: { hash: string; height: number; txIndex: number }[] = [];
  for (let h = 1; h <= height; h++) {
    const r = await devnetRpc<{ block: { data: { txs: string[] | null } } }>(url, 'block', { height: String(h) });
    (r.block.data.txs ?? []).forEach((b64, i) =>
      out.push({
        hash: Buffer.from(sha256(Buffer.from(b64, 'base64')))
          .toString('hex')
          .toUpperCase(),
        height: h,
        txIndex: i,
      }),
    );
  }
  return out;
}
