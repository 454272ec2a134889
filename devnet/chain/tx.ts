/**
 * Tx envelope handling of the devnet: TxRaw decoding, message decoding to
 * proto-JSON, and the signature/sequence checks of the Cosmos SDK ante
 * handler (sign mode direct, secp256k1). Rejections carry the SDK's codes and
 * log texts (codespace "sdk"):
 *
 *   2  tx parse error            undecodable bytes, unknown message type URL
 *   4  unauthorized              wrong signer count, bad signature, unsupported sign mode
 *   7  invalid address           message signer is not a bech32 account of this chain
 *   8  invalid pubkey            missing/unsupported pubkey, pubkey does not match the signer
 *   9  unknown address           signer account does not exist (never funded)
 *   18 invalid request           no message; EVM messages mixed with others or carrying cosmos signatures
 *   32 incorrect account sequence
 *
 * Which field signs a message: the svc contract puts the signer in field 1 of
 * every Msg (sender, issuer, authority…); MsgSend's signer is from_address.
 * EVM txs (only MsgEthereumTx messages) carry no cosmos signature, as with
 * Ethermint's ExtensionOptionsEthereumTx: the app verifies the signed RLP.
 */
import { TxRaw, TxBody, AuthInfo, SignDoc } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey as Secp256k1PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { Secp256k1, Secp256k1Signature } from '@cosmjs/crypto';
import { decodeMessage, EVM_MSG_TYPE_URLS, lookupContractType, MSG_TYPE_URLS } from '../../src/lib/contract';
import { toBech32, decodeBech32Address } from '../../src/lib/address';
import { bytesEqual } from '../../src/lib/bytes';
import type { TxMessage } from '../app/types';
import { secp256k1AddressBytes, sha256, txHashHex } from './hashing';

export const BANK_MSG_SEND = '/cosmos.bank.v1beta1.MsgSend';
export const SECP256K1_PUBKEY_TYPE_URL = '/cosmos.crypto.secp256k1.PubKey';

/** Every message type URL the devnet accepts. */
export const ACCEPTED_MSG_TYPE_URLS: ReadonlySet<string> = new Set([...MSG_TYPE_URLS, BANK_MSG_SEND]);
const EVM_TYPE_URLS: ReadonlySet<string> = new Set(EVM_MSG_TYPE_URLS);

/** SDK error codes the chain layer answers with (codespace "sdk"). */
export const SdkCode = Object.freeze({
  TxDecode: 2,
  Unauthorized: 4,
  InvalidAddress: 7,
  InvalidPubKey: 8,
  UnknownAddress: 9,
  InvalidRequest: 18,
  WrongSequence: 32,
});

const SDK_DESCRIPTIONS: Record<number, string> = {
  2: 'tx parse error',
  4: 'unauthorized',
  7: 'invalid address',
  8: 'invalid pubkey',
  9: 'unknown address',
  18: 'invalid request',
  32: 'incorrect account sequence',
};

/** A tx refused by CheckTx (or by the re-check at delivery): an ABCI code with the SDK's log. */
export class TxRejection extends Error {
  readonly codespace = 'sdk';
  constructor(
    readonly code: number,
    detail: string,
  ) {
    super(`${detail}: ${SDK_DESCRIPTIONS[code] ?? 'error'}`);
    this.name = 'TxRejection';
  }
  get log(): string {
    return this.message;
  }
}

export interface DecodedTx {
  bytes: Uint8Array;
  /** upper-case hex SHA-256 of the TxRaw bytes */
  hash: string;
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  authInfo: AuthInfo;
  signatures: Uint8Array[];
  messages: TxMessage[];
  /** only MsgEthereumTx messages: no cosmos signers */
  isEvm: boolean;
  /** bech32 signers in GetSigners order (first message's signer first, duplicates removed) */
  signers: string[];
  fee: { denom: string; amount: string }[];
  gasLimit: bigint;
  memo: string;
}

function parse<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    throw new TxRejection(SdkCode.TxDecode, `invalid ${what}: ${(e as Error).message}`);
  }
}

/** A message's value as proto-JSON (proto field names), MsgSend included. */
export function decodeTxMessage(typeUrl: string, value: Uint8Array): TxMessage {
  if (!ACCEPTED_MSG_TYPE_URLS.has(typeUrl))
    throw new TxRejection(SdkCode.TxDecode, `unable to resolve type URL ${typeUrl}`);
  if (typeUrl === BANK_MSG_SEND) {
    const m = parse(typeUrl, () => MsgSend.decode(value));
    return {
      typeUrl,
      value: {
        from_address: m.fromAddress,
        to_address: m.toAddress,
        amount: m.amount.map((c) => ({ denom: c.denom, amount: c.amount })),
      },
    };
  }
  return { typeUrl, value: parse(typeUrl, () => decodeMessage(typeUrl, value)) };
}

/** The field holding a message's signer: MsgSend's from_address, else the contract Msg's field 1. */
export function signerField(typeUrl: string): string | undefined {
  if (typeUrl === BANK_MSG_SEND) return 'from_address';
  const type = lookupContractType(typeUrl);
  return type?.fieldsById[1]?.name;
}

function messageSigner(msg: TxMessage, hrp: string): string {
  const field = signerField(msg.typeUrl);
  const value = field ? msg.value[field] : undefined;
  try {
    if (typeof value !== 'string') throw new Error('missing');
    return toBech32(decodeBech32Address(value, hrp).bytes, hrp);
  } catch {
    throw new TxRejection(
      SdkCode.InvalidAddress,
      `invalid signer address ${JSON.stringify(value ?? '')} of ${msg.typeUrl}`,
    );
  }
}

function requiredSigners(messages: TxMessage[], hrp: string): string[] {
  const out: string[] = [];
  for (const m of messages) {
    const s = messageSigner(m, hrp);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

function checkEvmEnvelope(messages: TxMessage[], authInfo: AuthInfo, signatures: Uint8Array[]): boolean {
  const evmCount = messages.filter((m) => EVM_TYPE_URLS.has(m.typeUrl)).length;
  if (evmCount === 0) return false;
  if (evmCount !== messages.length)
    throw new TxRejection(SdkCode.InvalidRequest, 'MsgEthereumTx cannot be mixed with other messages');
  if (authInfo.signerInfos.length > 0 || signatures.length > 0) {
    throw new TxRejection(SdkCode.InvalidRequest, 'for eth tx AuthInfo SignerInfos should be empty');
  }
  return true;
}

/** Decodes TxRaw bytes and their body; throws TxRejection (code 2, 7 or 18) on a malformed tx. */
export function decodeTx(bytes: Uint8Array, hrp: string): DecodedTx {
  const raw = parse('TxRaw', () => TxRaw.decode(bytes));
  const body = parse('TxBody', () => TxBody.decode(raw.bodyBytes));
  const authInfo = parse('AuthInfo', () => AuthInfo.decode(raw.authInfoBytes));
  if (body.messages.length === 0) throw new TxRejection(SdkCode.InvalidRequest, 'must contain at least one message');
  const messages = body.messages.map((any) => decodeTxMessage(any.typeUrl, any.value));
  const isEvm = checkEvmEnvelope(messages, authInfo, raw.signatures);
  const fee = authInfo.fee;
  return {
    bytes,
    hash: txHashHex(bytes),
    bodyBytes: raw.bodyBytes,
    authInfoBytes: raw.authInfoBytes,
    authInfo,
    signatures: raw.signatures,
    messages,
    isEvm,
    signers: isEvm ? [] : requiredSigners(messages, hrp),
    fee: (fee?.amount ?? []).map((c) => ({ denom: c.denom, amount: c.amount })),
    gasLimit: fee?.gasLimit ?? 0n,
    memo: body.memo,
  };
}

/** What verification needs to know about a signer: its number, the sequence it must sign with, its stored key. */
export interface SignerAccount {
  accountNumber: bigint;
  sequence: bigint;
  pubKey?: Uint8Array;
}

export type SignerAccountLookup = (address: string) => SignerAccount | undefined;

function signerPubKey(tx: DecodedTx, index: number, account: SignerAccount): Uint8Array {
  const any = tx.authInfo.signerInfos[index].publicKey;
  if (!any || any.typeUrl === '') {
    if (account.pubKey) return account.pubKey;
    throw new TxRejection(SdkCode.InvalidPubKey, `pubkey on account is not set for signer index ${index}`);
  }
  if (any.typeUrl !== SECP256K1_PUBKEY_TYPE_URL)
    throw new TxRejection(SdkCode.InvalidPubKey, `unsupported pubkey type ${any.typeUrl}`);
  const key = parse('pubkey', () => Secp256k1PubKey.decode(any.value).key);
  if (key.length !== 33) throw new TxRejection(SdkCode.InvalidPubKey, 'secp256k1 pubkey must be 33 compressed bytes');
  return key;
}

function checkSignMode(tx: DecodedTx, index: number): void {
  const mode = tx.authInfo.signerInfos[index].modeInfo?.single?.mode;
  if (mode !== SignMode.SIGN_MODE_DIRECT) {
    throw new TxRejection(
      SdkCode.Unauthorized,
      `unsupported sign mode for signer index ${index} (the devnet verifies SIGN_MODE_DIRECT only)`,
    );
  }
}

// secp256k1 group order n; the SDK refuses malleable signatures with s > n/2
const SECP256K1_HALF_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n >> 1n;

function isLowS(sig: Uint8Array): boolean {
  return BigInt(`0x${Buffer.from(sig.subarray(32)).toString('hex')}`) <= SECP256K1_HALF_ORDER;
}

async function checkSignature(
  tx: DecodedTx,
  index: number,
  pubKey: Uint8Array,
  account: SignerAccount,
  chainId: string,
): Promise<void> {
  const signDoc = SignDoc.encode({
    bodyBytes: tx.bodyBytes,
    authInfoBytes: tx.authInfoBytes,
    chainId,
    accountNumber: account.accountNumber,
  }).finish();
  const sig = tx.signatures[index];
  let ok = false;
  if (sig.length === 64 && isLowS(sig)) {
    try {
      ok = await Secp256k1.verifySignature(Secp256k1Signature.fromFixedLength(sig), sha256(signDoc), pubKey);
    } catch {
      ok = false;
    }
  }
  if (!ok) {
    throw new TxRejection(
      SdkCode.Unauthorized,
      `signature verification failed; please verify account number (${account.accountNumber}), sequence (${account.sequence}) and chain-id (${chainId})`,
    );
  }
}

/** A signer that passed the stateful checks; its signature is verified separately (async). */
export interface CheckedSigner {
  address: string;
  pubKey: Uint8Array;
  account: SignerAccount;
}

/**
 * The synchronous ante checks, in the SDK's order: signer count, account
 * existence, sign mode, pubkey matching the signer address, sequence. Run at
 * CheckTx and again at delivery (state may have moved on in between).
 */
export function checkSigners(tx: DecodedTx, lookup: SignerAccountLookup): CheckedSigner[] {
  if (tx.isEvm) return [];
  const infos = tx.authInfo.signerInfos;
  if (infos.length !== tx.signers.length || tx.signatures.length !== tx.signers.length) {
    throw new TxRejection(
      SdkCode.Unauthorized,
      `wrong number of signers; expected ${tx.signers.length}, got ${infos.length} signer infos and ${tx.signatures.length} signatures`,
    );
  }
  return tx.signers.map((address, i) => {
    const account = lookup(address);
    if (!account) throw new TxRejection(SdkCode.UnknownAddress, `account ${address} does not exist`);
    checkSignMode(tx, i);
    const pubKey = signerPubKey(tx, i, account);
    if (!bytesEqual(secp256k1AddressBytes(pubKey), decodeBech32Address(address).bytes)) {
      throw new TxRejection(
        SdkCode.InvalidPubKey,
        `pubKey does not match signer address ${address} with signer index: ${i}`,
      );
    }
    if (infos[i].sequence !== account.sequence) {
      throw new TxRejection(
        SdkCode.WrongSequence,
        `account sequence mismatch, expected ${account.sequence}, got ${infos[i].sequence}`,
      );
    }
    return { address, pubKey, account };
  });
}

/** secp256k1 over sha256(SignDoc) for every checked signer; throws code 4 on the first bad one. */
export async function verifySignatures(
  tx: DecodedTx,
  signers: readonly CheckedSigner[],
  chainId: string,
): Promise<void> {
  for (let i = 0; i < signers.length; i++) await checkSignature(tx, i, signers[i].pubKey, signers[i].account, chainId);
}

/** Both: the stateful checks and the signatures. Returns the signers' pubkeys. */
export async function verifyTxSignatures(
  tx: DecodedTx,
  lookup: SignerAccountLookup,
  chainId: string,
): Promise<Uint8Array[]> {
  const signers = checkSigners(tx, lookup);
  await verifySignatures(tx, signers, chainId);
  return signers.map((s) => s.pubKey);
}

/**
 * Gas charged to a tx refused at delivery before its messages ran: what the
 * SDK ante consumes by then (10 per tx byte plus 1000 per secp256k1 signature).
 */
export function anteGasEstimate(tx: Pick<DecodedTx, 'bytes' | 'signers'>): bigint {
  return BigInt(10 * tx.bytes.length + 1000 * tx.signers.length);
}
