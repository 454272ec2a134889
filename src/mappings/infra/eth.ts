/**
 * EVM view of a MsgEthereumTx from its signed transaction: eth hash
 * (keccak256 of the signed RLP / EIP-2718 envelope), sender (recovered from
 * the signature), recipient, value.
 *
 *   /cosmos.evm.vm.v1.MsgEthereumTx  carries the signed bytes in `raw`
 *   /ethermint.evm.v1.MsgEthereumTx  carries LegacyTx / DynamicFeeTx fields in
 *                                    the Any `data`; the signed RLP is rebuilt
 *
 * Why not ethers: its CommonJS build (the one webpack bundles for a `require`)
 * loads http/https/zlib at start-up (utils/geturl), which the mapping sandbox
 * refuses. RLP is a few lines; signature recovery is @cosmjs/crypto's
 * secp256k1 (noble curves, bundle-safe). Unit tests cross-check with ethers.
 */
import { ExtendedSecp256k1Signature } from '@cosmjs/crypto/build/secp256k1signature';
import { Secp256k1 } from '@cosmjs/crypto/build/secp256k1';
import { fromHex, toHex } from '@cosmjs/encoding';
import { keccak_256 } from '@noble/hashes/sha3';
import { toChecksumAddress } from '../../lib/address';
import { decodeWire } from './protojson';
import { str } from './values';

export interface EthView {
  ethHash: string;
  /** EIP-55 */
  from: string;
  /** EIP-55; null for contract creation */
  to: string | null;
  value: bigint;
}

// ---------------------------------------------------------------- RLP

type Rlp = Uint8Array | Rlp[];

function decodeLength(buf: Uint8Array, pos: number, lenOfLen: number): number {
  let n = 0;
  for (let i = 0; i < lenOfLen; i++) n = n * 256 + buf[pos + i];
  return n;
}

function decodeItem(buf: Uint8Array, pos: number): { item: Rlp; end: number } {
  const b = buf[pos];
  if (b === undefined) throw new Error('truncated RLP');
  if (b < 0x80) return { item: buf.subarray(pos, pos + 1), end: pos + 1 };
  if (b < 0xb8) return { item: buf.subarray(pos + 1, pos + 1 + b - 0x80), end: pos + 1 + b - 0x80 };
  if (b < 0xc0) {
    const len = decodeLength(buf, pos + 1, b - 0xb7);
    const start = pos + 1 + b - 0xb7;
    return { item: buf.subarray(start, start + len), end: start + len };
  }
  const [start, len] = b < 0xf8 ? [pos + 1, b - 0xc0] : [pos + 1 + b - 0xf7, decodeLength(buf, pos + 1, b - 0xf7)];
  const items: Rlp[] = [];
  let p = start;
  while (p < start + len) {
    const next = decodeItem(buf, p);
    items.push(next.item);
    p = next.end;
  }
  if (p !== start + len || p > buf.length) throw new Error('malformed RLP list');
  return { item: items, end: p };
}

export function rlpDecode(buf: Uint8Array): Rlp {
  const { item, end } = decodeItem(buf, 0);
  if (end !== buf.length) throw new Error('trailing bytes after RLP');
  return item;
}

function lengthPrefix(len: number, offset: number): Uint8Array {
  if (len < 56) return Uint8Array.of(offset + len);
  const bytes: number[] = [];
  for (let n = len; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Uint8Array.of(offset + 55 + bytes.length, ...bytes);
}

export function rlpEncode(item: Rlp): Uint8Array {
  if (item instanceof Uint8Array || !Array.isArray(item)) {
    const bytes = item as Uint8Array;
    if (bytes.length === 1 && bytes[0] < 0x80) return Uint8Array.from(bytes);
    return concat([lengthPrefix(bytes.length, 0x80), bytes]);
  }
  const body = concat(item.map(rlpEncode));
  return concat([lengthPrefix(body.length, 0xc0), body]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

// ---------------------------------------------------------------- integers and bytes

function toBigint(b: Rlp): bigint {
  const bytes = b as Uint8Array;
  return bytes.length ? BigInt(`0x${toHex(bytes)}`) : 0n;
}

/** Minimal big-endian bytes of a non-negative integer (RLP integer form; 0 -> empty). */
function intBytes(v: bigint): Uint8Array {
  if (v === 0n) return new Uint8Array(0);
  const hex = v.toString(16);
  return fromHex(hex.length % 2 ? `0${hex}` : hex);
}

/** Big-endian integer bytes without leading zeros (what cosmjs' signature type requires for r and s). */
function unpadded(b: Uint8Array): Uint8Array {
  const first = b.findIndex((x) => x !== 0);
  return first < 0 ? new Uint8Array(0) : b.subarray(first);
}

function addressOrNull(b: Rlp): string | null {
  const bytes = b as Uint8Array;
  return bytes.length === 20 ? toChecksumAddress(bytes) : null;
}

function hexOf(bytes: Uint8Array): string {
  return `0x${toHex(bytes)}`;
}

// ---------------------------------------------------------------- signed transactions

function recoverSender(signingHash: Uint8Array, r: Rlp, s: Rlp, recovery: number): string {
  const sig = new ExtendedSecp256k1Signature(unpadded(r as Uint8Array), unpadded(s as Uint8Array), recovery);
  const pubkey = Secp256k1.recoverPubkey(sig, signingHash); // 65 bytes, 0x04 prefix
  return toChecksumAddress(keccak_256(pubkey.subarray(1)).subarray(12));
}

/** Legacy: [nonce, gasPrice, gas, to, value, data, v, r, s]; EIP-155 when v >= 35. */
function legacyView(raw: Uint8Array, f: Rlp[]): EthView {
  if (f.length !== 9) throw new Error('legacy tx must have 9 fields');
  const v = toBigint(f[6]);
  const eip155 = v >= 35n;
  const chainId = eip155 ? (v - 35n) / 2n : 0n;
  const unsigned = eip155 ? [...f.slice(0, 6), intBytes(chainId), new Uint8Array(0), new Uint8Array(0)] : f.slice(0, 6);
  const recovery = Number(eip155 ? (v - 35n) % 2n : v - 27n);
  return {
    ethHash: hexOf(keccak_256(raw)),
    from: recoverSender(keccak_256(rlpEncode(unsigned)), f[7], f[8], recovery),
    to: addressOrNull(f[3]),
    value: toBigint(f[4]),
  };
}

/** EIP-2718 typed: 0x01 [chainId, nonce, gasPrice, gas, to, value, data, accessList, yParity, r, s], 0x02 with two fee fields. */
function typedView(raw: Uint8Array, type: number, f: Rlp[]): EthView {
  const layout: Record<number, { fields: number; to: number; value: number }> = {
    1: { fields: 11, to: 4, value: 5 },
    2: { fields: 12, to: 5, value: 6 },
  };
  const l = layout[type];
  if (!l || f.length !== l.fields) throw new Error(`unsupported typed tx ${type}`);
  const unsigned = f.slice(0, l.fields - 3);
  const signingHash = keccak_256(concat([Uint8Array.of(type), rlpEncode(unsigned)]));
  return {
    ethHash: hexOf(keccak_256(raw)),
    from: recoverSender(signingHash, f[l.fields - 2], f[l.fields - 1], Number(toBigint(f[l.fields - 3]))),
    to: addressOrNull(f[l.to]),
    value: toBigint(f[l.value]),
  };
}

/** View of a signed transaction: legacy RLP list or typed envelope. */
export function viewOfRaw(raw: Uint8Array): EthView {
  const bytes = Uint8Array.from(raw);
  if (bytes.length === 0) throw new Error('empty ethereum tx');
  if (bytes[0] >= 0xc0) return legacyView(bytes, rlpDecode(bytes) as Rlp[]);
  return typedView(bytes, bytes[0], rlpDecode(bytes.subarray(1)) as Rlp[]);
}

// ---------------------------------------------------------------- Ethermint layout

const num = (v: unknown): bigint => (v === undefined || v === null || v === '' ? 0n : BigInt(String(v)));
const bytesOf = (v: unknown): Uint8Array => (v ? Uint8Array.from(v as Uint8Array) : new Uint8Array(0));
const addressBytes = (v: unknown): Uint8Array =>
  v ? Uint8Array.from(Buffer.from(String(v).replace(/^0x/, ''), 'hex')) : new Uint8Array(0);

/** Rebuilds the signed RLP of an Ethermint LegacyTx / DynamicFeeTx (proto fields, snake_case). */
export function signedEthermintTx(typeUrl: string, f: Record<string, unknown>): Uint8Array {
  const common = [intBytes(num(f.gas)), addressBytes(f.to), intBytes(num(f.value)), bytesOf(f.data)];
  const sig = [unpadded(bytesOf(f.v)), unpadded(bytesOf(f.r)), unpadded(bytesOf(f.s))];
  if (typeUrl.endsWith('.LegacyTx')) {
    return rlpEncode([intBytes(num(f.nonce)), intBytes(num(f.gas_price)), ...common, ...sig]);
  }
  if (typeUrl.endsWith('.DynamicFeeTx')) {
    const accessList = ((f.accesses as { address: string; storage_keys?: string[] }[]) ?? []).map((a) => [
      addressBytes(a.address),
      (a.storage_keys ?? []).map(addressBytes),
    ]);
    const fields = [
      intBytes(num(f.chain_id)),
      intBytes(num(f.nonce)),
      intBytes(num(f.gas_tip_cap)),
      intBytes(num(f.gas_fee_cap)),
      ...common,
      accessList,
      ...sig,
    ];
    return concat([Uint8Array.of(2), rlpEncode(fields)]);
  }
  throw new Error(`unsupported ethermint tx data ${typeUrl}`);
}

/** View of a MsgEthereumTx of either layout, from the node's decodedMsg. */
export function viewOfMsgEthereumTx(typeUrl: string, decoded: Record<string, unknown>): EthView {
  if (typeUrl === '/cosmos.evm.vm.v1.MsgEthereumTx') return viewOfRaw(bytesOf(decoded.raw));
  const data = decoded.data as { typeUrl?: string; type_url?: string; value: Uint8Array } | null;
  if (!data) throw new Error('MsgEthereumTx without data');
  const innerUrl = String(data.typeUrl ?? data.type_url ?? '');
  return viewOfRaw(signedEthermintTx(innerUrl, decodeWire(innerUrl, bytesOf(data.value))));
}

const ERROR_SELECTOR = '08c379a0';

/** ABI-decoded Error(string) of revert return data (0x hex); null when it is not one. */
export function revertString(returnData: string): string | null {
  const hex = returnData.startsWith('0x') ? returnData.slice(2) : returnData;
  if (!hex.toLowerCase().startsWith(ERROR_SELECTOR) || hex.length < 8 + 128) return null;
  try {
    const body = Buffer.from(hex.slice(8), 'hex');
    const offset = Number(BigInt(`0x${body.subarray(0, 32).toString('hex')}`));
    const length = Number(BigInt(`0x${body.subarray(offset, offset + 32).toString('hex')}`));
    const text = body.subarray(offset + 32, offset + 32 + length);
    return text.length === length ? text.toString('utf8') : null;
  } catch {
    return null;
  }
}

/** The EVM outcome of one MsgEthereumTx as a Cosmos EVM or Ethermint chain reports it. */
export interface EvmOutcome {
  failed: boolean;
  gasUsed: bigint | null;
  vmError: string;
  /** 0x-hex of the MsgEthereumTxResponse `ret` ('0x' when empty, '' without a response) */
  returnData: string;
  /** the ethereum_tx event's `recipient` ('' when absent): the created contract of a creation */
  recipient: string;
}

interface ResultEvent {
  type: string;
  attributes: readonly { key: unknown; value: unknown }[];
}

/** The MsgEthereumTxResponse of message `msgIndex` in a DeliverTx result's data (TxMsgData, SDK >= 0.46 or older). */
function ethereumTxResponse(data: Uint8Array, msgIndex: number): Record<string, unknown> | null {
  if (data.length === 0) return null;
  const msgData = decodeWire('cosmos.base.abci.v1beta1.TxMsgData', data);
  const any = (msgData.msg_responses as { type_url?: string; value?: Uint8Array }[] | undefined)?.[msgIndex];
  const legacy = (msgData.data as { msg_type?: string; data?: Uint8Array }[] | undefined)?.[msgIndex];
  const [typeUrl, bytes] = any
    ? [str(any.type_url), any.value]
    : legacy
      ? [str(legacy.msg_type), legacy.data]
      : ['', undefined];
  const type = /(cosmos\.evm\.vm\.v1|ethermint\.evm\.v1)\.MsgEthereumTx(Response)?$/.exec(typeUrl);
  if (!type || !bytes) return null;
  return decodeWire(`${type[1]}.MsgEthereumTxResponse`, bytes);
}

/** The tx's `ethereum_tx` event for `ethHash` as attribute key → value. */
function ethereumTxEvent(events: readonly ResultEvent[], ethHash: string): Map<string, string> | null {
  for (const e of events) {
    if (e.type !== 'ethereum_tx') continue;
    const attrs = new Map(e.attributes.map((a) => [str(a.key), str(a.value)]));
    if ((attrs.get('ethereumTxHash') ?? '').toLowerCase() === ethHash) return attrs;
  }
  return null;
}

/**
 * The outcome from what every Cosmos EVM / Ethermint chain reports: the MsgEthereumTxResponse
 * (`vm_error`, `ret`, `gas_used`) and the `ethereum_tx` event (`ethereumTxFailed`, `txGasUsed`,
 * `recipient`). Null when the result carries neither.
 */
export function evmOutcomeOf(
  result: { data?: unknown; events?: readonly ResultEvent[] },
  msgIndex: number,
  ethHash: string,
): EvmOutcome | null {
  let response: Record<string, unknown> | null = null;
  try {
    response = ethereumTxResponse(Uint8Array.from((result.data ?? []) as Uint8Array), msgIndex);
  } catch {
    response = null; // data that is not a TxMsgData: the event alone decides
  }
  const event = ethereumTxEvent(result.events ?? [], ethHash.toLowerCase());
  if (!response && !event) return null;
  const vmError = str(response?.vm_error) || (event?.get('ethereumTxFailed') ?? '');
  const ret = response?.ret as Uint8Array | undefined;
  const gas = response?.gas_used ?? event?.get('txGasUsed');
  return {
    failed: vmError !== '',
    gasUsed: gas === undefined || gas === '' ? null : BigInt(String(gas)),
    vmError,
    returnData: response ? `0x${toHex(Uint8Array.from(ret ?? []))}` : '',
    recipient: event?.get('recipient') ?? '',
  };
}
