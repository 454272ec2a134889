/**
 * auth: accounts. An account gets the next account number when it first
 * receives coins or signs a tx; the ante handler bumps its sequence and
 * stores its public key on first signature.
 */
import type { KvReader, KvWriter } from '../store';
import { nextId } from '../env';

export interface AccountRec {
  address: string;
  account_number: bigint;
  sequence: bigint;
  /** hex of the compressed secp256k1 key; '' until the account signs */
  pub_key: string;
}

const accountKey = (address: string) => `auth/acct/${address}`;
const NEXT_NUMBER_KEY = 'auth/next_number';

export function getAccount(kv: KvReader, address: string): AccountRec | undefined {
  return kv.get<AccountRec>(accountKey(address));
}

/** The account of `address`, created with the next account number if missing. */
export function ensureAccount(kv: KvWriter, address: string): AccountRec {
  const existing = getAccount(kv, address);
  if (existing) return existing;
  // account numbers start at 0 like the SDK's
  const account: AccountRec = {
    address,
    account_number: BigInt(nextId(kv, NEXT_NUMBER_KEY) - 1),
    sequence: 0n,
    pub_key: '',
  };
  kv.set(accountKey(address), account);
  return account;
}

/** Bumps the sequence (and records the pubkey once); returns the sequence the tx used. */
export function useSequence(kv: KvWriter, address: string, pubKeyHex: string): bigint {
  const account = ensureAccount(kv, address);
  kv.set(accountKey(address), {
    ...account,
    sequence: account.sequence + 1n,
    pub_key: account.pub_key || pubKeyHex,
  });
  return account.sequence;
}
