/**
 * The scenario's cast: deterministic secp256k1 keys derived from the seed,
 * cosmjs wallets for cosmos txs and ethers wallets for EVM txs. An EVM
 * wallet's account is the bech32 form of its 0x address (eth_secp256k1
 * style), a different account from the cosmos key of the same name.
 */
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import { sha256 } from '@noble/hashes/sha2';
import { Wallet } from 'ethers';
import { bytesToHex, utf8Encode } from '../../src/lib/bytes';
import { toBech32 } from '../../src/lib/address';

export interface Actor {
  name: string;
  address: string;
  wallet: DirectSecp256k1Wallet;
}

export interface EvmActor {
  name: string;
  /** EIP-55 0x address */
  evmAddress: string;
  /** bech32 account of the same 20 bytes */
  address: string;
  wallet: Wallet;
}

/** Named roles; holders and EVM wallets are numbered. */
export const ROLE_NAMES = [
  'issuer-community',
  'issuer-dividend',
  'issuer-equity',
  'issuer-bond',
  'operator',
  'releaser',
  'lender',
  'desk',
  'attester',
  'bridge',
  // never signed for by the scenario: funded, and holding the pooled assets, for a person trying
  // the lender and the desk by hand (npm run example, docs/app-services.md "Try it")
  'visitor',
] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/**
 * Roles the app services (lender service, trade-desk service) sign for in
 * services mode: the scenario then never signs as them, because two signers
 * on one key break each other's sequences.
 */
export const SERVICE_ROLES: readonly RoleName[] = ['lender', 'desk'];

export interface Cast {
  roles: Record<RoleName, Actor>;
  holders: Actor[];
  evm: EvmActor[];
  /** every cosmos actor (roles then holders) */
  all: Actor[];
  byAddress: Map<string, Actor>;
}

export interface CastOptions {
  seed: string;
  hrp: string;
  holders?: number;
  evmWallets?: number;
}

const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** A valid secp256k1 private key (0 < k < n) from the seed and a name; rehashed in the astronomically rare invalid case. */
export function privateKey(seed: string, name: string): Uint8Array {
  for (let attempt = 0; ; attempt++) {
    const key = sha256(utf8Encode(`svc-devnet/${seed}/key/${name}/${attempt}`));
    const k = BigInt('0x' + bytesToHex(key));
    if (k > 0n && k < CURVE_ORDER) return key;
  }
}

async function cosmosActor(seed: string, name: string, hrp: string): Promise<Actor> {
  const wallet = await DirectSecp256k1Wallet.fromKey(privateKey(seed, name), hrp);
  const [account] = await wallet.getAccounts();
  return { name, address: account.address, wallet };
}

function evmActor(seed: string, name: string, hrp: string): EvmActor {
  const wallet = new Wallet('0x' + bytesToHex(privateKey(seed, name)));
  return { name, evmAddress: wallet.address, address: toBech32(wallet.address, hrp), wallet };
}

export async function createCast(options: CastOptions): Promise<Cast> {
  const { seed, hrp } = options;
  const roles = {} as Record<RoleName, Actor>;
  for (const name of ROLE_NAMES) roles[name] = await cosmosActor(seed, name, hrp);
  const holders: Actor[] = [];
  for (let i = 0; i < (options.holders ?? 12); i++) holders.push(await cosmosActor(seed, `holder-${i}`, hrp));
  const evm = Array.from({ length: options.evmWallets ?? 3 }, (_, i) => evmActor(seed, `evm-${i}`, hrp));
  const all = [...ROLE_NAMES.map((n) => roles[n]), ...holders];
  return { roles, holders, evm, all, byAddress: new Map(all.map((a) => [a.address, a])) };
}
