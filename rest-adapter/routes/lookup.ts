/** /v1/lookup/{q}: candidates in the dispatch table's deterministic order. */
import type { AccountAddress } from '../../src/lib/address';
import { NotFoundError } from '../../src/lib/errors';
import type { Sql } from '../db/sql';
import type { RouteContext } from './context';
import { LookupShape, lookupShape } from './lookup-shape';

type Candidate = Record<string, unknown> & { type: string; id: string };

export function registerLookupRoutes(ctx: RouteContext): void {
  const { lookup, accounts, chain, settlements, encumbrances } = ctx.repos;

  async function accountCandidate(sql: Sql, account: AccountAddress): Promise<Candidate> {
    return { type: 'account', id: account.bech32, known: await accounts.known(sql, account.bech32), evm_address: account.evm };
  }

  async function hex64(sql: Sql, assetId: string, txHash: string): Promise<Candidate[]> {
    const [asset, tx] = await Promise.all([lookup.assetExists(sql, assetId), lookup.txByHash(sql, txHash)]);
    const out: Candidate[] = [];
    if (asset) out.push({ type: 'asset', id: assetId });
    if (tx) out.push({ type: 'tx', id: tx.hash, height: tx.height });
    return out;
  }

  /** A precompile address names its asset; any other 20-byte key is an account. */
  async function evmAddress(sql: Sql, account: AccountAddress): Promise<Candidate[]> {
    const tokens = await lookup.tokenAssets(sql, account.evm ?? '');
    if (tokens.length === 0) return [await accountCandidate(sql, account)];
    return tokens.map((t) => ({ type: 'asset', id: t.asset_id, kind_id: t.kind_id, bundle: t.kind_id === null }));
  }

  async function integer(sql: Sql, value: bigint): Promise<Candidate[]> {
    const id = value.toString();
    const [{ indexedHeight }, settlement, encumbrance] = await Promise.all([chain.progress(sql), settlements.exists(sql, id), encumbrances.exists(sql, id)]);
    const out: Candidate[] = [];
    if (value >= 1n && value <= BigInt(indexedHeight)) out.push({ type: 'block', id, height: Number(value) });
    if (settlement) out.push({ type: 'settlement', id });
    if (encumbrance) out.push({ type: 'encumbrance', id });
    return out;
  }

  async function candidates(sql: Sql, shape: LookupShape): Promise<Candidate[]> {
    switch (shape.shape) {
      case 'hex64':
        return hex64(sql, shape.assetId, shape.txHash);
      case 'bech32':
        return [await accountCandidate(sql, shape.account)];
      case 'evm':
        return evmAddress(sql, shape.account);
      case 'ethHash': {
        const tx = await lookup.txByEthHash(sql, shape.ethHash);
        return tx ? [{ type: 'tx', id: tx.hash, height: tx.height }] : [];
      }
      case 'integer':
        return integer(sql, shape.value);
    }
  }

  ctx.get('/v1/lookup/:q', async (req) => {
    const q = String(req.params.q);
    const shape = lookupShape(q, ctx.hrp);
    if (!shape) throw new NotFoundError('unrecognised lookup query');
    const found = await ctx.store.read((sql) => candidates(sql, shape));
    return { query: q, candidates: found };
  }, { fixedPerHeight: true });
}
