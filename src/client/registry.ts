/**
 * cosmjs glue for the svc chain: a Registry that knows the Stargate defaults
 * plus every message of the contract (proto/), and offline tx signing (sign
 * mode direct) fast enough for scenario generators that sign tens of
 * thousands of txs.
 *
 * Contract messages use proto field names (keepCase protobufjs), so values
 * passed to cosmjs look like `{ sender, recipient, asset_id, kind_id, units }`.
 */
import {
  Registry,
  type EncodeObject,
  type GeneratedType,
  type OfflineDirectSigner,
  type AccountData,
} from '@cosmjs/proto-signing';
import { encodePubkey } from '@cosmjs/proto-signing';
import { encodeSecp256k1Pubkey } from '@cosmjs/amino';
import { fromBase64 } from '@cosmjs/encoding';
import { defaultRegistryTypes } from '@cosmjs/stargate';
import { AuthInfo, SignDoc, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { Any } from 'cosmjs-types/google/protobuf/any';
import { decodeMessage, encodeMessage, MSG_TYPE_URLS } from '../lib/contract';

/**
 * A contract message as a cosmjs pbjs-style type. `create` converts through
 * the contract's proto-JSON rules (64-bit values as strings, enum names,
 * RFC 3339 timestamps) and rejects unknown keys, so a camelCase `assetId`
 * fails loudly instead of encoding an empty field; `decode` answers proto-JSON.
 */
function contractMessageType(typeUrl: string): GeneratedType {
  const name = typeUrl.slice(1);
  return {
    create: (value?: Record<string, unknown>) => ({ bytes: encodeMessage(name, value ?? {}) }),
    encode: (message: { bytes?: Uint8Array } & Record<string, unknown>) => {
      // cosmjs only calls finish() on what encode returns
      const bytes = message.bytes instanceof Uint8Array ? message.bytes : encodeMessage(name, message);
      return { finish: () => bytes } as unknown as ReturnType<Extract<GeneratedType, { create: unknown }>['encode']>;
    },
    decode: (input: Uint8Array) => decodeMessage(name, input),
  } as GeneratedType;
}

/** Stargate default types plus every svc and EVM message of the contract. */
export function svcRegistry(): Registry {
  const registry = new Registry(defaultRegistryTypes);
  for (const typeUrl of MSG_TYPE_URLS) registry.register(typeUrl, contractMessageType(typeUrl));
  return registry;
}

let sharedRegistry: Registry | undefined;
function defaultRegistry(): Registry {
  return (sharedRegistry ??= svcRegistry());
}

export interface TxFee {
  amount: readonly { denom: string; amount: string }[];
  gas: bigint | number | string;
}

export interface SignTxInput {
  messages: readonly EncodeObject[];
  accountNumber: bigint | number;
  sequence: bigint | number;
  chainId: string;
  fee: TxFee;
  memo?: string;
  timeoutHeight?: bigint;
  /** signer address in the wallet; defaults to the wallet's first account */
  signerAddress?: string;
  registry?: Registry;
}

/** Protobuf TxBody bytes of messages. */
export function encodeTxBody(
  messages: readonly EncodeObject[],
  memo = '',
  timeoutHeight = 0n,
  registry = defaultRegistry(),
): Uint8Array {
  return registry.encodeTxBody({ messages, memo, timeoutHeight });
}

function encodeAuthInfo(signers: { pubkey?: Any; sequence: bigint }[], fee: TxFee): Uint8Array {
  return AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: signers.map((s) => ({
        publicKey: s.pubkey,
        modeInfo: { single: { mode: SignMode.SIGN_MODE_DIRECT } },
        sequence: s.sequence,
      })),
      fee: { amount: fee.amount.map((c) => ({ denom: c.denom, amount: c.amount })), gasLimit: BigInt(fee.gas) },
    }),
  ).finish();
}

// getAccounts of an HD wallet derives keys on every call; remember the answer per wallet.
const accountsCache = new WeakMap<OfflineDirectSigner, Promise<readonly AccountData[]>>();

async function signerAccount(wallet: OfflineDirectSigner, address?: string): Promise<AccountData> {
  let accounts = accountsCache.get(wallet);
  if (!accounts) {
    accounts = wallet.getAccounts();
    accountsCache.set(wallet, accounts);
  }
  const list = await accounts;
  const account = address === undefined ? list[0] : list.find((a) => a.address === address);
  if (!account) throw new Error(`signer ${address ?? '(first account)'} not found in wallet`);
  return account;
}

/** TxRaw bytes of a tx with one signer, signed offline in sign mode direct. */
export async function signTx(wallet: OfflineDirectSigner, input: SignTxInput): Promise<Uint8Array> {
  const account = await signerAccount(wallet, input.signerAddress);
  const registry = input.registry ?? defaultRegistry();
  const bodyBytes = encodeTxBody(input.messages, input.memo, input.timeoutHeight, registry);
  const pubkey = encodePubkey(encodeSecp256k1Pubkey(account.pubkey));
  const authInfoBytes = encodeAuthInfo([{ pubkey, sequence: BigInt(input.sequence) }], input.fee);
  const signDoc = SignDoc.fromPartial({
    bodyBytes,
    authInfoBytes,
    chainId: input.chainId,
    accountNumber: BigInt(input.accountNumber),
  });
  const { signed, signature } = await wallet.signDirect(account.address, signDoc);
  return TxRaw.encode({
    bodyBytes: signed.bodyBytes,
    authInfoBytes: signed.authInfoBytes,
    signatures: [fromBase64(signature.signature)],
  }).finish();
}

/**
 * TxRaw bytes of an EVM tx: MsgEthereumTx messages and no cosmos signer
 * (Ethermint style; the signed RLP inside the message is what counts).
 */
export function buildEvmTx(messages: readonly EncodeObject[], fee: TxFee, registry = defaultRegistry()): Uint8Array {
  const bodyBytes = encodeTxBody(messages, '', 0n, registry);
  return TxRaw.encode({ bodyBytes, authInfoBytes: encodeAuthInfo([], fee), signatures: [] }).finish();
}
