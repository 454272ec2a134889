/**
 * dex: minimal constant-product pools of an asset's whole bundles against a
 * quote denom (x·y = k, no fee), one pool per (asset, quote denom). The pool
 * account is the 32-byte ADR-028 module account of "dex" and the pool id; it
 * holds the bundle units (moved like bundle transfers) and the quote coins.
 * Reserves are the pool account's holdings.
 */
import type { KvReader } from '../store';
import { keySegment } from '../store';
import { moduleAccountAddress, toBech32 } from '../../../src/lib/address';
import { uint64BE } from '../../../src/lib/bytes';
import { isValidDenom } from '../../../src/lib/config';
import { Env, emitTyped, idNumber, nextId, nonNegativeAmount, positiveAmount, requireAddress } from '../env';
import { dexErrors } from '../errors';
import { AssetRec, bundleKinds, requireAsset } from './asset-state';
import * as rights from './rights';
import { balance, send } from './bank';

export interface PoolRec {
  pool_id: number;
  asset_id: string;
  quote_denom: string;
  address: string;
  creator: string;
  created_height: number;
}

const poolKey = (id: number) => `dex/pool/${id}`;
const pairKey = (assetId: string, denom: string) => `dex/pair/${assetId}|${keySegment(denom)}`;

export function getPool(kv: KvReader, id: number): PoolRec | undefined {
  return kv.get<PoolRec>(poolKey(id));
}

export function poolOfPair(kv: KvReader, assetId: string, denom: string): PoolRec | undefined {
  const id = kv.get<number>(pairKey(assetId, denom));
  return id === undefined ? undefined : getPool(kv, id);
}

/** Base reserve (whole-bundle units the pool can pay out) and quote reserve. */
export function reserves(kv: KvReader, pool: PoolRec, asset: AssetRec): { base: bigint; quote: bigint } {
  return {
    base: rights.transferableBundles(kv, asset, pool.address),
    quote: balance(kv, pool.address, pool.quote_denom),
  };
}

/** price_per_whole = quote_reserve × 10^decimals / base_reserve (floor), decimals of the first bundle kind. */
export function pricePerWhole(kv: KvReader, pool: PoolRec, asset: AssetRec): bigint {
  const { base, quote } = reserves(kv, pool, asset);
  const decimals = bundleKinds(asset)[0]?.decimals ?? 0;
  return base === 0n ? 0n : (quote * 10n ** BigInt(decimals)) / base;
}

export function handleCreatePool(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const creator = requireAddress(env, msg.creator, 'creator');
  const asset = requireAsset(env.kv, msg.asset_id);
  const quoteDenom = String(msg.quote_denom ?? '');
  if (!isValidDenom(quoteDenom)) throw dexErrors.invalidAmount(`invalid quote_denom ${JSON.stringify(quoteDenom)}`);
  if (poolOfPair(env.kv, asset.asset_id, quoteDenom)) throw dexErrors.poolExists(`${asset.asset_id}/${quoteDenom}`);
  const baseUnits = positiveAmount(msg.base_units, dexErrors.invalidAmount);
  const quoteAmount = positiveAmount(msg.quote_amount, dexErrors.invalidAmount);
  const id = nextId(env.kv, 'dex/next_id');
  const pool: PoolRec = {
    pool_id: id,
    asset_id: asset.asset_id,
    quote_denom: quoteDenom,
    address: toBech32(moduleAccountAddress('dex', uint64BE(BigInt(id))), env.config.chain.hrp),
    creator,
    created_height: env.height,
  };
  env.kv.set(poolKey(id), pool);
  env.kv.set(pairKey(asset.asset_id, quoteDenom), id);
  const moved = rights.moveBundle(env, asset, creator, pool.address, baseUnits);
  send(env, creator, pool.address, [{ denom: quoteDenom, amount: quoteAmount }]);
  emitTyped(env, 'svc.dex.v1.EventPoolCreated', {
    pool_id: id,
    asset_id: asset.asset_id,
    quote_denom: quoteDenom,
    creator,
    pool_address: pool.address,
    base_reserve: baseUnits,
    quote_reserve: quoteAmount,
    positions_after: moved.positions,
  });
  return { pool_id: id };
}

export function handleSwap(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const trader = requireAddress(env, msg.trader, 'trader');
  const pool = getPool(env.kv, idNumber(msg.pool_id));
  if (!pool) throw dexErrors.poolNotFound(String(msg.pool_id));
  const asset = requireAsset(env.kv, pool.asset_id);
  const sellBase = Boolean(msg.sell_base);
  const amountIn = positiveAmount(msg.amount, dexErrors.invalidAmount);
  const minOut = nonNegativeAmount(msg.min_out || '0', dexErrors.invalidAmount);
  const { base, quote } = reserves(env.kv, pool, asset);
  const [reserveIn, reserveOut] = sellBase ? [base, quote] : [quote, base];
  const out = (reserveOut * amountIn) / (reserveIn + amountIn);
  if (out === 0n) throw dexErrors.invalidAmount('output rounds to zero');
  if (out < minOut) throw dexErrors.slippage(`${out} < ${minOut}`);
  const moved = sellBase
    ? rights.moveBundle(env, asset, trader, pool.address, amountIn)
    : rights.moveBundle(env, asset, pool.address, trader, out);
  if (sellBase) send(env, pool.address, trader, [{ denom: pool.quote_denom, amount: out }]);
  else send(env, trader, pool.address, [{ denom: pool.quote_denom, amount: amountIn }]);
  const after = reserves(env.kv, pool, asset);
  emitTyped(env, 'svc.dex.v1.EventSwapped', {
    pool_id: pool.pool_id,
    asset_id: asset.asset_id,
    trader,
    sell_base: sellBase,
    amount_in: amountIn,
    amount_out: out,
    base_reserve_after: after.base,
    quote_reserve_after: after.quote,
    positions_after: moved.positions,
  });
  return { out };
}
