/** /v1/lookup/{q}: candidates in the dispatch table's deterministic order. */
import type { AccountAddress } from '../../src/lib/address';
import { NotFoundError } from '../../src/lib/errors';
import type { Sql } from '../db/sql';
import type { RouteContext } from './context';
import { LookupShape, lookupShape } from './lookup-shape';

type Candidate = Record<string, unknown> & { type: string; id: string };

export function registerLookupRoutes(ctx: RouteContext): void {
  const { lookup } = ctx.repos;

  function accountCandidate(account: AccountAddress, known: boolean): Candidate {
    return { type: 'account', id: account.bech32, known, evm_address: account.evm };
  }

  async function hex64(sql: Sql, assetId: string, txHash: string): Promise<Candidate[]> {
    const { asset, tx } = await lookup.hex64(sql, assetId, txHash);
    const out: Candidate[] = [];
    if (asset) out.push({ type: 'asset', id: assetId });
    if (tx) out.push({ type: 'tx', id: tx.hash, height: tx.height });
    return out;
  }

  /** A precompile address names its asset; any other 20-byte key is an account. */
  async function evmAddress(sql: Sql, account: AccountAddress): Promise<Candidate[]> {
    const { tokens, known } = await lookup.evmAddress(sql, account.evm ?? '', account.bech32);
    if (tokens.length === 0) return [accountCandidate(account, known)];
    return tokens.map((t) => ({ type: 'asset', id: t.asset_id, kind_id: t.kind_id, bundle: t.kind_id === null }));
  }

  async function integer(sql: Sql, value: bigint): Promise<Candidate[]> {
    const id = value.toString();
    const found = await lookup.integer(sql, id);
    const out: Candidate[] = [];
    if (value >= 1n && value <= BigInt(found.indexedHeight)) out.push({ type: 'block', id, height: Number(value) });
    if (found.settlement) out.push({ type: 'settlement', id });
    if (found.encumbrance) out.push({ type: 'encumbrance', id });
    return out;
  }

  /** Every shape reads one statement. */
  async function candidates(sql: Sql, shape: LookupShape): Promise<Candidate[]> {
    switch (shape.shape) {
      case 'hex64':
        return hex64(sql, shape.assetId, shape.txHash);
      case 'bech32':
        return [accountCandidate(shape.account, await ctx.repos.accounts.known(sql, shape.account.bech32))];
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

  ctx.get(
    '/v1/lookup/{q}',
    async (req) => {
      const q = String(req.params.q);
      const shape = lookupShape(q, ctx.hrp);
      if (!shape) throw new NotFoundError('unrecognised lookup query');
      const found = await ctx.store.readOne((sql) => candidates(sql, shape));
      return { query: q, candidates: found };
    },
    { fixedPerHeight: true },
  );
}
