/**
 * evm: MsgEthereumTx execution without a bytecode interpreter.
 *
 * Accepted forms: /cosmos.evm.vm.v1.MsgEthereumTx (`raw`: the signed
 * EIP-2718 envelope) and /ethermint.evm.v1.MsgEthereumTx (`data`: an Any of
 * DynamicFeeTx or LegacyTx, rebuilt into a signed tx with ethers). ethers
 * recovers the sender; the chain id must be the configured EVM chain id and
 * the nonce the sender's EVM nonce (kept by this module, separate from the
 * cosmos account sequence). The sender's bech32 account is the same 20 bytes
 * as its 0x address (eth_secp256k1 style).
 *
 * What runs: value transfers in the gas denom (1 wei = 1 base unit), the
 * right-token and bundle-token precompiles (ERC-20 shaped, moving units via
 * the rights module), and contract creation (the init code is stored as the
 * code at getCreateAddress; calls to such code revert with "contract
 * execution not supported"). Gas is a fixed schedule (intrinsic 21000 +
 * calldata, creation 32000 + 200/byte, precompile costs below); gas_used above
 * the gas limit is "out of gas" (all gas charged). A revert or failure keeps
 * the tx successful at consensus level: the EVM changes are dropped, gas is
 * charged (gas_used × effective gas price, to the fee collector) and the
 * nonce stays bumped.
 */
import {
  AbiCoder,
  Signature,
  Transaction,
  getAddress,
  getBytes,
  getCreateAddress,
  hexlify,
  zeroPadValue,
} from 'ethers';
import { CacheKv, KvReader } from '../store';
import { toBech32 } from '../../../src/lib/address';
import { bundleTokenAddress, rightTokenAddress } from '../../../src/lib/ids';
import { decodeMessage } from '../../../src/lib/contract';
import { Env, emitPlain, emitTyped, moduleAccount } from '../env';
import { AppError, sdkErrors } from '../errors';
import { AssetRec, bundleKinds, getAsset } from './asset-state';
import * as rights from './rights';
import { balance, send } from './bank';

export const COSMOS_EVM_MSG = '/cosmos.evm.vm.v1.MsgEthereumTx';
export const ETHERMINT_MSG = '/ethermint.evm.v1.MsgEthereumTx';

const GAS = {
  tx: 21000n,
  create: 32000n,
  codeByte: 200n,
  zeroByte: 4n,
  nonZeroByte: 16n,
  read: 2600n,
  transfer: 30000n,
  approve: 22000n,
};

const SELECTORS = {
  balanceOf: '0x70a08231',
  transfer: '0xa9059cbb',
  transferFrom: '0x23b872dd',
  approve: '0x095ea7b3',
  allowance: '0xdd62ed3e',
  totalSupply: '0x18160ddd',
  decimals: '0x313ce567',
};

const ERROR_STRING_SELECTOR = '0x08c379a0';
const abi = AbiCoder.defaultAbiCoder();

export interface TokenEntry {
  kind_id: number;
  bundle: boolean;
  /** EIP-55 precompile address */
  address: string;
}

const tokenKey = (address: string) => `evm/token/${address.toLowerCase()}`;
const registryKey = (assetId: string) => `evm/registry/${assetId}`;
const nonceKey = (address: string) => `evm/nonce/${address.toLowerCase()}`;
const codeKey = (address: string) => `evm/code/${address.toLowerCase()}`;
const allowanceKey = (token: string, owner: string, spender: string) =>
  `evm/allowance/${token.toLowerCase()}/${owner.toLowerCase()}|${spender.toLowerCase()}`;

// ------------------------------------------------------------------ registry

/** Registers the right tokens of every kind and the bundle token of a new asset. */
export function registerAssetTokens(env: Env, asset: AssetRec): void {
  const entries: TokenEntry[] = asset.kinds.map((k) => ({
    kind_id: k.kind_id,
    bundle: false,
    address: rightTokenAddress(asset.asset_id, k.kind_id),
  }));
  entries.push({ kind_id: 0, bundle: true, address: bundleTokenAddress(asset.asset_id) });
  for (const e of entries)
    env.kv.set(tokenKey(e.address), { asset_id: asset.asset_id, kind_id: e.kind_id, bundle: e.bundle });
  env.kv.set(registryKey(asset.asset_id), entries);
}

export function tokenRegistry(kv: KvReader, assetId: string): TokenEntry[] {
  return kv.get<TokenEntry[]>(registryKey(assetId)) ?? [];
}

export function evmNonce(kv: KvReader, address: string): bigint {
  return kv.get<bigint>(nonceKey(address)) ?? 0n;
}

export function codeAt(kv: KvReader, address: string): string | undefined {
  return kv.get<string>(codeKey(address));
}

// ------------------------------------------------------------------ decoding

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Uint8Array.from(Buffer.from(value, 'base64'));
  if (Array.isArray(value)) return Uint8Array.from(value as number[]);
  return new Uint8Array(0);
}

function bigOf(value: unknown): bigint {
  const s = String(value ?? '0');
  return s === '' ? 0n : BigInt(s);
}

function word(bytes: Uint8Array): string {
  return zeroPadValue(bytes.length ? bytes : Uint8Array.of(0), 32);
}

/** The inner tx of an ethermint Any: {"@type", ...fields} or {type_url, value}. */
function ethermintInner(data: Record<string, unknown>): { type: string; fields: Record<string, unknown> } {
  if (typeof data['@type'] === 'string') {
    const { '@type': type, ...fields } = data;
    return { type: String(type).replace(/^\//, ''), fields };
  }
  const type = String(data.type_url ?? data.typeUrl ?? '').replace(/^\//, '');
  return { type, fields: decodeMessage(type, bytesOf(data.value)) };
}

function fromDynamicFee(f: Record<string, unknown>): Transaction {
  const v = bigOf(hexOrZero(bytesOf(f.v)));
  return Transaction.from({
    type: 2,
    chainId: bigOf(f.chain_id),
    nonce: Number(bigOf(f.nonce)),
    maxPriorityFeePerGas: bigOf(f.gas_tip_cap),
    maxFeePerGas: bigOf(f.gas_fee_cap),
    gasLimit: bigOf(f.gas),
    to: f.to ? String(f.to) : null,
    value: bigOf(f.value),
    data: hexlify(bytesOf(f.data)),
    accessList: ((f.accesses as Record<string, unknown>[]) ?? []).map((a) => ({
      address: String(a.address),
      storageKeys: (a.storage_keys as string[]) ?? [],
    })),
    signature: Signature.from({ r: word(bytesOf(f.r)), s: word(bytesOf(f.s)), yParity: Number(v) as 0 | 1 }),
  });
}

function fromLegacy(f: Record<string, unknown>): Transaction {
  const v = bigOf(hexOrZero(bytesOf(f.v)));
  return Transaction.from({
    type: 0,
    chainId: v >= 35n ? (v - 35n) / 2n : 0n,
    nonce: Number(bigOf(f.nonce)),
    gasPrice: bigOf(f.gas_price),
    gasLimit: bigOf(f.gas),
    to: f.to ? String(f.to) : null,
    value: bigOf(f.value),
    data: hexlify(bytesOf(f.data)),
    signature: Signature.from({ r: word(bytesOf(f.r)), s: word(bytesOf(f.s)), v }),
  });
}

function hexOrZero(bytes: Uint8Array): string {
  return bytes.length ? hexlify(bytes) : '0';
}

/** The signed Ethereum tx of either MsgEthereumTx form; sdk/2 when it does not decode. */
export function parseEthereumTx(typeUrl: string, msg: Record<string, unknown>): Transaction {
  try {
    if (typeUrl === COSMOS_EVM_MSG) return Transaction.from(hexlify(bytesOf(msg.raw)));
    const inner = ethermintInner((msg.data ?? {}) as Record<string, unknown>);
    if (inner.type === 'ethermint.evm.v1.DynamicFeeTx') return fromDynamicFee(inner.fields);
    if (inner.type === 'ethermint.evm.v1.LegacyTx') return fromLegacy(inner.fields);
    throw new Error(`unsupported inner tx ${inner.type}`);
  } catch (e) {
    throw sdkErrors.txDecode(`MsgEthereumTx: ${(e as Error).message}`);
  }
}

/**
 * The EVM sender, 0x and as a bech32 account (same 20 bytes). Read `tx.from`
 * once: ethers v6 runs a full ecrecover on every read (~4 ms).
 */
export function senderOf(tx: Transaction, hrp: string): { evm: string; bech32: string } {
  const evm = tx.from;
  if (!evm) throw sdkErrors.unauthorized('unsigned Ethereum tx');
  return { evm, bech32: toBech32(evm, hrp) };
}

// ------------------------------------------------------------------ execution

class EvmRevert extends Error {
  constructor(
    readonly vmError: string,
    readonly returnData: string,
  ) {
    super(vmError);
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** revert with ABI Error(string) */
function revert(reason: string): never {
  throw new EvmRevert('execution reverted', ERROR_STRING_SELECTOR + abi.encode(['string'], [reason]).slice(2));
}

interface Outcome {
  gasUsed: bigint;
  returnData: string;
  contractAddress: string;
}

function calldataGas(data: string): bigint {
  let gas = 0n;
  for (const b of getBytes(data)) gas += b === 0 ? GAS.zeroByte : GAS.nonZeroByte;
  return gas;
}

function effectiveGasPrice(tx: Transaction): bigint {
  if (tx.type === 2) {
    // no base fee on the devnet: the price is the tip, capped by the fee cap
    const tip = tx.maxPriorityFeePerGas ?? 0n;
    const cap = tx.maxFeePerGas ?? 0n;
    return tip < cap ? tip : cap;
  }
  return tx.gasPrice ?? 0n;
}

function rightsRevertReason(e: AppError): string {
  if (e.codespace === 'rights' && e.code === 2) return 'svc: insufficient transferable units';
  if (e.codespace === 'rights' && e.code === 3) return 'svc: kind not transferable';
  if (e.codespace === 'rights' && e.code === 4) return `svc: ${e.message}`;
  if (e.codespace === 'rights' && e.code === 6) return 'svc: no bundle kinds';
  return `svc: ${e.message}`;
}

function decodeArgs(types: string[], data: string): unknown[] {
  try {
    return [...abi.decode(types, '0x' + data.slice(10))];
  } catch {
    return revert('svc: invalid calldata');
  }
}

interface TokenRef {
  asset_id: string;
  kind_id: number;
  bundle: boolean;
}

function tokenUnits(env: Env, asset: AssetRec, token: TokenRef, holder: string): bigint {
  return token.bundle
    ? rights.transferableBundles(env.kv, asset, holder)
    : rights.transferable(env.kv, asset.asset_id, token.kind_id, holder);
}

function moveTokenUnits(env: Env, asset: AssetRec, token: TokenRef, from: string, to: string, units: bigint): void {
  if (units <= 0n) revert('svc: invalid amount');
  try {
    if (token.bundle) {
      const moved = rights.moveBundle(env, asset, from, to, units);
      rights.emitBundleTransferred(env, asset, from, to, units, moved);
    } else {
      const kind = asset.kinds[token.kind_id];
      const positions = rights.move(env, asset, kind, from, to, units);
      rights.emitTransferred(env, asset, kind, from, to, units, positions);
    }
  } catch (e) {
    if (e instanceof AppError) revert(rightsRevertReason(e));
    throw e;
  }
}

const encodeUint = (n: bigint) => abi.encode(['uint256'], [n]);
const TRUE = abi.encode(['bool'], [true]);

/** Runs an ERC-20 call against a right-token or bundle-token precompile. */
function callToken(
  env: Env,
  tokenAddress: string,
  token: TokenRef,
  from: string,
  data: string,
): { gas: bigint; ret: string } {
  const asset = getAsset(env.kv, token.asset_id)!;
  const hrp = env.config.chain.hrp;
  const account = (a: unknown) => toBech32(getAddress(String(a)), hrp);
  const selector = data.slice(0, 10).toLowerCase();
  switch (selector) {
    case SELECTORS.balanceOf: {
      const [owner] = decodeArgs(['address'], data);
      return { gas: GAS.read, ret: encodeUint(tokenUnits(env, asset, token, account(owner))) };
    }
    case SELECTORS.totalSupply: {
      const kinds = token.bundle ? bundleKinds(asset) : [asset.kinds[token.kind_id]];
      const supplies = kinds.map((k) => rights.getSupply(env.kv, asset.asset_id, k.kind_id).supply);
      return { gas: GAS.read, ret: encodeUint(supplies.length ? supplies.reduce((m, v) => (v < m ? v : m)) : 0n) };
    }
    case SELECTORS.decimals: {
      const kind = token.bundle ? bundleKinds(asset)[0] : asset.kinds[token.kind_id];
      return { gas: GAS.read, ret: encodeUint(BigInt(kind?.decimals ?? 0)) };
    }
    case SELECTORS.transfer: {
      const [to, amount] = decodeArgs(['address', 'uint256'], data);
      moveTokenUnits(env, asset, token, from, account(to), amount as bigint);
      return { gas: GAS.transfer, ret: TRUE };
    }
    case SELECTORS.approve: {
      const [spender, amount] = decodeArgs(['address', 'uint256'], data);
      env.kv.set(allowanceKey(tokenAddress, from, account(spender)), amount as bigint);
      return { gas: GAS.approve, ret: TRUE };
    }
    case SELECTORS.allowance: {
      const [owner, spender] = decodeArgs(['address', 'address'], data);
      return {
        gas: GAS.read,
        ret: encodeUint(env.kv.get<bigint>(allowanceKey(tokenAddress, account(owner), account(spender))) ?? 0n),
      };
    }
    case SELECTORS.transferFrom: {
      const [owner, to, amount] = decodeArgs(['address', 'address', 'uint256'], data);
      const key = allowanceKey(tokenAddress, account(owner), from);
      const allowed = env.kv.get<bigint>(key) ?? 0n;
      if (allowed < (amount as bigint)) revert('svc: insufficient allowance');
      env.kv.set(key, allowed - (amount as bigint));
      moveTokenUnits(env, asset, token, account(owner), account(to), amount as bigint);
      return { gas: GAS.transfer, ret: TRUE };
    }
    default:
      return revert('svc: unknown selector');
  }
}

/** Executes the tx's effect (inside the caller's revertable cache); throws EvmRevert. */
function execute(env: Env, tx: Transaction, sender: string, senderEvm: string, nonce: bigint): Outcome {
  const hrp = env.config.chain.hrp;
  let gas = GAS.tx + calldataGas(tx.data);
  if (tx.to === null) {
    const created = getCreateAddress({ from: senderEvm, nonce });
    if (codeAt(env.kv, created)) throw new EvmRevert('contract address collision', '0x');
    gas += GAS.create + GAS.codeByte * BigInt(getBytes(tx.data).length);
    env.kv.set(codeKey(created), tx.data);
    send(env, sender, toBech32(created, hrp), [{ denom: env.config.chain.gasDenom, amount: tx.value }]);
    return { gasUsed: gas, returnData: '0x', contractAddress: created };
  }
  const token = env.kv.get<TokenRef>(tokenKey(tx.to));
  if (token) {
    if (tx.value > 0n) revert('svc: value not accepted');
    const { gas: callGas, ret } = callToken(env, tx.to, token, sender, tx.data);
    return { gasUsed: gas + callGas, returnData: ret, contractAddress: '' };
  }
  send(env, sender, toBech32(tx.to, hrp), [{ denom: env.config.chain.gasDenom, amount: tx.value }]);
  if (codeAt(env.kv, tx.to)) throw new EvmRevert('contract execution not supported', '0x');
  return { gasUsed: gas, returnData: '0x', contractAddress: '' };
}

interface EvmResult extends Outcome {
  status: 0 | 1;
  vmError: string;
}

/** Runs `execute` in a nested cache: kept on success, dropped on revert or out of gas. */
function run(env: Env, tx: Transaction, sender: string, senderEvm: string, nonce: bigint): EvmResult {
  const outOfGas: EvmResult = {
    gasUsed: tx.gasLimit,
    returnData: '0x',
    contractAddress: '',
    status: 0,
    vmError: 'out of gas',
  };
  const intrinsic = GAS.tx + calldataGas(tx.data);
  if (intrinsic > tx.gasLimit) return outOfGas;
  const cache = new CacheKv(env.kv);
  const inner: Env = { ...env, kv: cache, events: [] };
  let result: EvmResult;
  try {
    result = { ...execute(inner, tx, sender, senderEvm, nonce), status: 1, vmError: '' };
  } catch (e) {
    if (!(e instanceof EvmRevert)) throw e;
    // a revert is charged the intrinsic gas only (there is no interpreter to meter further)
    return { gasUsed: intrinsic, returnData: e.returnData, contractAddress: '', status: 0, vmError: e.vmError };
  }
  if (result.gasUsed > tx.gasLimit) return outOfGas;
  cache.writeTo(env.kv);
  env.events.push(...inner.events);
  return result;
}

// ------------------------------------------------------------------ message

/** Handles either MsgEthereumTx form; returns the MsgEthereumTxResponse and the EVM sender. */
export function handleEthereumTx(
  env: Env,
  typeUrl: string,
  msg: Record<string, unknown>,
): { response: Record<string, unknown>; sender: string; gasUsed: bigint } {
  const tx = parseEthereumTx(typeUrl, msg);
  const { evm: senderEvm, bech32: sender } = senderOf(tx, env.config.chain.hrp);
  if (tx.chainId !== BigInt(env.config.chain.evmChainId)) {
    throw sdkErrors.invalidChainId(`tx chain id ${tx.chainId}, expected ${env.config.chain.evmChainId}`);
  }
  const nonce = evmNonce(env.kv, senderEvm);
  if (BigInt(tx.nonce) !== nonce) throw sdkErrors.invalidSequence(`invalid nonce; got ${tx.nonce}, expected ${nonce}`);
  const price = effectiveGasPrice(tx);
  const denom = env.config.chain.gasDenom;
  const maxCost = tx.gasLimit * price + tx.value;
  const have = balance(env.kv, sender, denom);
  if (have < maxCost)
    throw sdkErrors.insufficientFunds(`${have}${denom} is smaller than ${maxCost}${denom} (gas limit × price + value)`);
  env.kv.set(nonceKey(senderEvm), nonce + 1n);
  const result = run(env, tx, sender, senderEvm, nonce);
  send(env, sender, moduleAccount(env.config, 'fee_collector'), [{ denom, amount: result.gasUsed * price }]);
  emitResult(env, tx, result);
  return {
    response: {
      hash: tx.hash!,
      ret: Buffer.from(getBytes(result.returnData)).toString('base64'),
      vm_error: result.vmError,
      gas_used: result.gasUsed,
    },
    sender,
    gasUsed: result.gasUsed,
  };
}

function emitResult(env: Env, tx: Transaction, r: EvmResult): void {
  const attributes: Record<string, string> = {
    amount: tx.value.toString(),
    ethereumTxHash: tx.hash!.toLowerCase(),
    txIndex: String(env.txIndex),
    txGasUsed: r.gasUsed.toString(),
    txHash: env.txHash ?? '',
    recipient: r.contractAddress || tx.to || '',
  };
  if (r.status === 0) attributes.ethereumTxFailed = r.vmError;
  emitPlain(env, 'ethereum_tx', attributes);
  if (!env.config.evmOutcomeEvent) return;
  emitTyped(env, 'svc.evm.v1.EventEthereumTxExecuted', {
    eth_hash: tx.hash!.toLowerCase(),
    gas_used: r.gasUsed,
    status: r.status,
    vm_error: r.vmError,
    return_data: r.returnData.toLowerCase(),
    contract_address: r.contractAddress,
  });
}

/** ABI helpers for tests and scenario builders. */
export const erc20 = {
  selectors: SELECTORS,
  decodeRevert(returnData: string): string | null {
    if (!returnData.startsWith(ERROR_STRING_SELECTOR)) return null;
    return abi.decode(['string'], '0x' + returnData.slice(10))[0] as string;
  },
};
