/**
 * Signing keys of the services (LENDER_KEY, DESK_KEY): a secp256k1 private key as 64 hex
 * characters (0x optional), or a BIP-39 mnemonic (12 to 24 words; derivation path
 * m/44'/118'/0'/0/0, the Cosmos default). A key never leaves this module as text: the
 * secret is held in a closure, error messages never quote it, and a KeySecret prints
 * as "[redacted]" in logs, JSON and util.inspect.
 */
import { DirectSecp256k1HdWallet, DirectSecp256k1Wallet, type OfflineDirectSigner } from '@cosmjs/proto-signing';
import { ConfigError } from '../src/lib/errors';

const HEX_KEY_RE = /^(?:0x)?([0-9a-fA-F]{64})$/;

/** The variables that carry keys: read once into KeySecrets, then gone from the environment. */
export const KEY_VARIABLES = ['LENDER_KEY', 'DESK_KEY', 'WEBHOOK_SECRET_KEY'] as const;

/**
 * Removes the key variables from `env` (the process's own, once the configuration has read
 * them), so no child process (the SubQuery node, PostgreSQL, a watchdog) inherits a key.
 */
export function forgetKeyVariables(env: NodeJS.ProcessEnv): void {
  for (const name of KEY_VARIABLES) delete env[name];
}

/** `env` without the key variables: for a child started with an environment of its own. */
export function withoutKeyVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  forgetKeyVariables(copy);
  return copy;
}
const REDACTED = '[redacted]';

/** A secret from the environment that refuses to be printed. */
export class KeySecret {
  readonly #value: string;
  constructor(
    value: string,
    /** the variable it came from, for error messages */
    readonly source: string,
  ) {
    this.#value = value.trim();
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return REDACTED;
  }
}

export interface LoadedKey {
  wallet: OfflineDirectSigner;
  address: string;
}

function mnemonicWords(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** The wallet and address of a key; a ConfigError naming the variable (never the value) when it is neither form. */
export async function loadKey(secret: KeySecret, hrp: string): Promise<LoadedKey> {
  const text = secret.reveal();
  const hex = HEX_KEY_RE.exec(text);
  let wallet: OfflineDirectSigner;
  try {
    if (hex) wallet = await DirectSecp256k1Wallet.fromKey(Buffer.from(hex[1], 'hex'), hrp);
    else if ([12, 15, 18, 21, 24].includes(mnemonicWords(text).length))
      wallet = await DirectSecp256k1HdWallet.fromMnemonic(mnemonicWords(text).join(' '), { prefix: hrp });
    else throw new Error('shape');
  } catch {
    throw new ConfigError(
      secret.source,
      'not a usable key: give 64 hex characters (a secp256k1 private key) or a 12–24 word BIP-39 mnemonic',
    );
  }
  const [account] = await wallet.getAccounts();
  return { wallet, address: account.address };
}
