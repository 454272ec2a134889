/**
 * bank: coin balances, total supply per denom, sends between accounts
 * (module accounts included) and cosmos.bank.v1beta1.MsgSend. Every movement
 * emits the SDK's coin_spent / coin_received / transfer events (mint: coinbase,
 * burn: burn), amounts formatted "<amount><denom>".
 */
import type { KvReader, KvWriter } from '../store';
import { keySegment, unKeySegment } from '../store';
import { Env, emitPlain, requireAddress, positiveAmount } from '../env';
import { sdkErrors } from '../errors';
import { isValidDenom } from '../../../src/lib/config';
import { ensureAccount } from './auth';

export interface Coin {
  denom: string;
  amount: bigint;
}

const balanceKey = (address: string, denom: string) => `bank/bal/${address}/${keySegment(denom)}`;
const supplyKey = (denom: string) => `bank/supply/${keySegment(denom)}`;

export function balance(kv: KvReader, address: string, denom: string): bigint {
  return kv.get<bigint>(balanceKey(address, denom)) ?? 0n;
}

/** Every non-zero balance of an address, sorted by denom. */
export function allBalances(kv: KvReader, address: string): Coin[] {
  const parent = `bank/bal/${address}/`;
  return kv.keys(parent).map((key) => ({
    denom: unKeySegment(key.slice(parent.length)),
    amount: kv.get<bigint>(key) ?? 0n,
  }));
}

export function totalSupply(kv: KvReader, denom: string): bigint {
  return kv.get<bigint>(supplyKey(denom)) ?? 0n;
}

export function formatCoins(coins: readonly Coin[]): string {
  return coins.map((c) => `${c.amount}${c.denom}`).join(',');
}

function setBalance(kv: KvWriter, address: string, denom: string, amount: bigint): void {
  if (amount === 0n) kv.delete(balanceKey(address, denom));
  else kv.set(balanceKey(address, denom), amount);
}

function debit(kv: KvWriter, address: string, coin: Coin): void {
  const have = balance(kv, address, coin.denom);
  if (have < coin.amount) {
    throw sdkErrors.insufficientFunds(`${have}${coin.denom} is smaller than ${coin.amount}${coin.denom}`);
  }
  setBalance(kv, address, coin.denom, have - coin.amount);
}

function credit(kv: KvWriter, address: string, coin: Coin): void {
  ensureAccount(kv, address);
  setBalance(kv, address, coin.denom, balance(kv, address, coin.denom) + coin.amount);
}

/** Moves coins; sdk/5 when the sender is short (the caller's cache then drops everything). */
export function send(env: Env, from: string, to: string, coins: readonly Coin[]): void {
  const moving = coins.filter((c) => c.amount > 0n);
  if (moving.length === 0) return;
  for (const coin of moving) debit(env.kv, from, coin);
  for (const coin of moving) credit(env.kv, to, coin);
  const amount = formatCoins(moving);
  emitPlain(env, 'coin_spent', { spender: from, amount });
  emitPlain(env, 'coin_received', { receiver: to, amount });
  emitPlain(env, 'transfer', { recipient: to, sender: from, amount });
}

/** Creates coins (genesis, bridge synthetic denoms). */
export function mint(env: Env, to: string, coin: Coin): void {
  mintSilently(env.kv, to, coin);
  const amount = formatCoins([coin]);
  emitPlain(env, 'coinbase', { minter: to, amount });
  emitPlain(env, 'coin_received', { receiver: to, amount });
}

/** Mint without events (genesis). */
export function mintSilently(kv: KvWriter, to: string, coin: Coin): void {
  credit(kv, to, coin);
  kv.set(supplyKey(coin.denom), totalSupply(kv, coin.denom) + coin.amount);
}

/** Destroys coins held by `from`. */
export function burn(env: Env, from: string, coin: Coin): void {
  debit(env.kv, from, coin);
  env.kv.set(supplyKey(coin.denom), totalSupply(env.kv, coin.denom) - coin.amount);
  const amount = formatCoins([coin]);
  emitPlain(env, 'coin_spent', { spender: from, amount });
  emitPlain(env, 'burn', { burner: from, amount });
}

/** A coin from proto-JSON {denom, amount}; amount must be positive. */
export function parseCoin(value: unknown, onError: (detail: string) => Error = sdkErrors.invalidRequest): Coin {
  const { denom, amount } = (value ?? {}) as { denom?: unknown; amount?: unknown };
  if (typeof denom !== 'string' || !isValidDenom(denom)) throw onError(`invalid denom ${JSON.stringify(denom)}`);
  return { denom, amount: positiveAmount(amount, (d) => onError(d) as never) };
}

// ------------------------------------------------------------------ MsgSend

export function handleMsgSend(env: Env, msg: Record<string, unknown>): Record<string, unknown> {
  const from = requireAddress(env, msg.from_address, 'from_address');
  const to = requireAddress(env, msg.to_address, 'to_address');
  const coins = ((msg.amount as unknown[]) ?? []).map((c) => parseCoin(c, sdkErrors.invalidRequest));
  if (coins.length === 0) throw sdkErrors.invalidRequest('empty amount');
  send(env, from, to, coins);
  return {};
}
