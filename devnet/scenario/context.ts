/**
 * What a flow sees while one block is being planned: the block's height and
 * time, the committed state (ChainView), the cast and the launched assets,
 * and the means to submit really signed txs (cosmjs signTx, ethers for EVM)
 * through the chain's CheckTx. A per-block ledger of reserved units and coins
 * keeps several txs planned against the same committed state from spending
 * the same units twice.
 */
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { getBytes, Transaction, type TransactionRequest } from 'ethers';
import type { SvcApp } from '../app';
import type { AbciEvent } from '../app/types';
import { evmNonce } from '../app/modules/evm';
import { SdkCode, type CheckTxResult, type DevnetChain } from '../chain';
import { buildEvmTx, signTx } from '../../src/client/registry';
import { decodeMessage, encodeMessage, lookupContractType } from '../../src/lib/contract';
import { hexToBytes } from '../../src/lib/bytes';
import { SERVICE_ROLES, type Actor, type Cast, type EvmActor } from './accounts';
import type { Msg, PolicySpec } from './messages';
import type { Prng } from './prng';
import type { AssetView, ChainView } from './view';

export interface ScenarioConfig {
  seed: string;
  hrp: string;
  gasDenom: string;
  stableDenom: string;
  chainId: string;
  evmChainId: number;
  oldChain: boolean;
  txsPerBlock: number;
  intervalMs: number;
  /** largest time jump of the history (expiries meant to be met allow for it) */
  maxJumpMs: number;
  /**
   * Live mode only: the lender and the desk (SERVICE_ROLES) are signed for by
   * app services outside the scenario, so the scenario never signs as them and
   * plays only the other side of their flows.
   */
  servicesMode: boolean;
  /** live blocks (after the history): the traders lean against a pool's move (flows/dex.ts sellChance) */
  live: boolean;
}

export type Template = 'community' | 'dividend' | 'equity' | 'bond';

/** An asset the scenario launched, known once its MsgCreateAsset committed. */
export interface LaunchedAsset {
  key: string;
  template: Template;
  symbol: string;
  assetId: string;
  issuer: Actor;
  metaHash: string;
  doc: Record<string, string>;
  kindCount: number;
  /** the asset-level policy it was created with (the Asset query does not answer it) */
  policy: PolicySpec;
  /** units issued (launch flow done with issuance) */
  issued: boolean;
  /** background traffic may use it (not the asset kept for liquidation) */
  background: boolean;
}

/** A tx the scenario submitted (CheckTx passed); its result is read once committed. */
export interface Handle {
  hash: string;
  height: number;
  signer: string;
  typeUrls: string[];
}

export interface Outcome {
  ok: boolean;
  code: number;
  codespace: string;
  log: string;
  events: AbciEvent[];
  /** proto-JSON of each message's response (empty object when the type is not in the contract) */
  responses: Record<string, unknown>[];
}

/** A multi-block script the scenario runs, one step per block (flow.ts: Script, Loop). */
export interface Flow {
  readonly name: string;
  /** false once the flow has nothing left to do */
  readonly active: boolean;
  step(ctx: Ctx): Promise<void>;
}

/** State shared by every block of one scenario. */
export interface World {
  chain: DevnetChain;
  app: SvcApp;
  view: ChainView;
  cast: Cast;
  config: ScenarioConfig;
  rng: Prng;
  assets: Map<string, LaunchedAsset>;
  /** txs the scenario submitted, by consensus hash */
  handles: Map<string, Handle>;
  flows: Flow[];
}

/** Every cosmos tx pays this fee from its first signer. */
export const TX_FEE_AMOUNT = 5000n;
export const TX_GAS = 2_000_000n;
/** EVM txs: gas limit and prices in the gas denom (1 wei = 1 base unit). */
export const EVM_GAS_LIMIT = 100_000n;
const EVM_MAX_FEE = 2n;
const EVM_TIP = 1n;

type EvmForm = 'cosmos' | 'ethermint';

export class Ctx {
  /** txs submitted in this block so far */
  used = 0;
  private readonly sequences = new Map<string, bigint>();
  private readonly evmNonces = new Map<string, bigint>();
  private readonly reservedUnits = new Map<string, bigint>();
  private readonly reservedCoins = new Map<string, bigint>();
  private readonly assetViews = new Map<string, AssetView | null>();
  private readonly claimed = new Set<string>();

  constructor(
    readonly world: World,
    readonly height: number,
    readonly now: number,
  ) {}

  get view(): ChainView {
    return this.world.view;
  }
  get cast(): Cast {
    return this.world.cast;
  }
  get config(): ScenarioConfig {
    return this.world.config;
  }
  get rng(): Prng {
    return this.world.rng;
  }
  get budgetLeft(): number {
    return this.world.config.txsPerBlock - this.used;
  }
  get servicesMode(): boolean {
    return this.world.config.servicesMode;
  }

  /** Whether the scenario signs for `actor` (not for the service roles in services mode). */
  signsFor(actor: Actor): boolean {
    return !this.servicesMode || !SERVICE_ROLES.some((role) => this.cast.roles[role].address === actor.address);
  }

  /** True the first time `key` is claimed in this block (e.g. one swap per pool per block). */
  claimOnce(key: string): boolean {
    if (this.claimed.has(key)) return false;
    this.claimed.add(key);
    return true;
  }

  // ------------------------------------------------------------------ time

  /** An expiry this scenario means to meet: far enough for a few blocks and the largest jump. */
  longExpiry(): number {
    return this.now + 12 * this.config.intervalMs + 2 * this.config.maxJumpMs + 60_000;
  }

  /** An expiry meant to be reached by the end-of-block sweep within about two blocks. */
  shortExpiry(): number {
    return this.now + Math.ceil(1.5 * this.config.intervalMs);
  }

  // ------------------------------------------------------------------ assets

  asset(key: string): LaunchedAsset | undefined {
    return this.world.assets.get(key);
  }

  /** The launched asset `key` once its units are issued. */
  issuedAsset(key: string): LaunchedAsset | undefined {
    const a = this.world.assets.get(key);
    return a?.issued ? a : undefined;
  }

  /** The committed asset record (cached for the block). */
  assetView(assetId: string): AssetView | null {
    if (!this.assetViews.has(assetId)) this.assetViews.set(assetId, this.view.asset(assetId));
    return this.assetViews.get(assetId) ?? null;
  }

  /** Whether `recipient` passes the kind's effective policy at this block's time. */
  canReceive(assetId: string, kindId: number, recipient: string): boolean {
    const asset = this.assetView(assetId);
    const kind = asset?.kinds[kindId];
    if (!asset || !kind) return false;
    const policy = kind.policy_override ?? this.launchedById(assetId)?.policy;
    if (!policy || policy.transfer === 'TRANSFER_MODE_OPEN') return true;
    if (policy.transfer === 'TRANSFER_MODE_RESTRICTED')
      return recipient === asset.issuer || (policy.allowlist ?? []).includes(recipient);
    const attesters = policy.attester ? [policy.attester] : [this.cast.roles.attester.address];
    return attesters.some((a) => {
      const att = this.view.attestation(a, recipient, policy.attestation_type ?? '');
      return !!att && !att.revoked && att.expiryMs > this.now;
    });
  }

  launchedById(assetId: string): LaunchedAsset | undefined {
    for (const a of this.world.assets.values()) if (a.assetId === assetId) return a;
    return undefined;
  }

  // ------------------------------------------------------------------ ledger

  private unitKey = (holder: string, assetId: string, kindId: number) => `${holder}|${assetId}|${kindId}`;

  /** Transferable units at the committed height minus what this block already spends. */
  availableUnits(holder: string, assetId: string, kindId: number): bigint {
    const committed = this.view.position(assetId, kindId, holder).transferable;
    const left = committed - (this.reservedUnits.get(this.unitKey(holder, assetId, kindId)) ?? 0n);
    return left > 0n ? left : 0n;
  }

  reserveUnits(holder: string, assetId: string, kindId: number, units: bigint): void {
    const key = this.unitKey(holder, assetId, kindId);
    this.reservedUnits.set(key, (this.reservedUnits.get(key) ?? 0n) + units);
  }

  /** Whole bundles available: the least available units over the given kinds. */
  availableBundles(holder: string, assetId: string, kindIds: number[]): bigint {
    const each = kindIds.map((k) => this.availableUnits(holder, assetId, k));
    return each.length ? each.reduce((m, v) => (v < m ? v : m)) : 0n;
  }

  availableCoins(address: string, denom: string): bigint {
    const left = this.view.balance(address, denom) - (this.reservedCoins.get(`${address}|${denom}`) ?? 0n);
    return left > 0n ? left : 0n;
  }

  reserveCoins(address: string, denom: string, amount: bigint): void {
    const key = `${address}|${denom}`;
    this.reservedCoins.set(key, (this.reservedCoins.get(key) ?? 0n) + amount);
  }

  // ------------------------------------------------------------------ submission

  /** Signs `messages` as `actor` (sign mode direct, next sequence) and puts the tx through CheckTx. */
  async submit(actor: Actor, messages: Msg[]): Promise<Handle> {
    // the one place every cosmos tx passes: a flow that forgot services mode is dropped instead of breaking the service's sequence
    if (!this.signsFor(actor))
      throw new Error(`scenario: services mode, ${actor.name} is signed for by its app service`);
    const account = this.world.app.account(actor.address);
    if (!account) throw new Error(`scenario: ${actor.name} (${actor.address}) has no account`);
    const sign = (sequence: bigint) =>
      signTx(actor.wallet, {
        messages,
        accountNumber: account.accountNumber,
        sequence,
        chainId: this.config.chainId,
        fee: { amount: [{ denom: this.config.gasDenom, amount: TX_FEE_AMOUNT.toString() }], gas: TX_GAS },
      });
    let sequence = this.sequences.get(actor.address) ?? account.sequence;
    let tx = await sign(sequence);
    let result = await this.world.chain.checkTx(tx);
    const expected = this.world.chain.nextSequence(actor.address);
    if (
      result.codespace === 'sdk' &&
      result.code === SdkCode.WrongSequence &&
      expected !== undefined &&
      expected !== sequence
    ) {
      // someone else signs with this key too (a user trying the live chain with a devnet account):
      // sign again at the sequence the mempool expects rather than stall on a taken one
      sequence = expected;
      tx = await sign(sequence);
      result = await this.world.chain.checkTx(tx);
    }
    this.sequences.set(actor.address, sequence + 1n);
    this.reserveCoins(actor.address, this.config.gasDenom, TX_FEE_AMOUNT);
    return this.admit(
      result,
      actor.address,
      messages.map((m) => m.typeUrl),
    );
  }

  /** Signs an EIP-1559 tx with the EVM actor's next nonce and submits it as a MsgEthereumTx of the given form. */
  async submitEvm(
    actor: EvmActor,
    request: Pick<TransactionRequest, 'to' | 'data' | 'value'>,
    form: EvmForm,
  ): Promise<Handle> {
    const nonce = this.evmNonces.get(actor.evmAddress) ?? evmNonce(this.world.app.pendingState(), actor.evmAddress);
    const raw = await actor.wallet.signTransaction({
      type: 2,
      chainId: this.config.evmChainId,
      nonce: Number(nonce),
      maxFeePerGas: EVM_MAX_FEE,
      maxPriorityFeePerGas: EVM_TIP,
      gasLimit: EVM_GAS_LIMIT,
      to: request.to ?? null,
      value: request.value ?? 0n,
      data: request.data ?? '0x',
    });
    this.evmNonces.set(actor.evmAddress, nonce + 1n);
    this.reserveCoins(actor.address, this.config.gasDenom, EVM_GAS_LIMIT * EVM_MAX_FEE + BigInt(request.value ?? 0n));
    // the sender is known: reading Transaction.from would run an ecrecover (~4 ms with ethers' curves)
    const message =
      form === 'cosmos' ? cosmosEvmMessage(raw, actor.evmAddress) : ethermintMessage(raw, actor.evmAddress);
    // no cosmos signer: the fee is the gas the EVM module charges itself
    const tx = buildEvmTx([message], { amount: [], gas: EVM_GAS_LIMIT });
    return this.check(tx, actor.address, [message.typeUrl]);
  }

  private async check(tx: Uint8Array, signer: string, typeUrls: string[]): Promise<Handle> {
    return this.admit(await this.world.chain.checkTx(tx), signer, typeUrls);
  }

  /** A CheckTx answer: the tx's handle, or a throw when it was refused. */
  private admit(result: CheckTxResult, signer: string, typeUrls: string[]): Handle {
    if (result.code !== 0)
      throw new Error(
        `scenario: CheckTx refused ${typeUrls.join(',')} from ${signer}: ${result.codespace}/${result.code} ${result.log}`,
      );
    const handle: Handle = { hash: result.hash, height: this.height, signer, typeUrls };
    this.world.handles.set(handle.hash, handle);
    this.used += 1;
    return handle;
  }

  /** The committed result of a submitted tx (throws when it is not in a block yet). */
  outcome(handle: Handle): Outcome {
    const stored = this.world.chain.tx(handle.hash);
    if (!stored) throw new Error(`scenario: tx ${handle.hash} is not committed`);
    const r = stored.result;
    return {
      ok: r.code === 0,
      code: r.code,
      codespace: r.codespace,
      log: r.log,
      events: r.events,
      responses: r.code === 0 ? decodeResponses(r.data) : [],
    };
  }

  /** Adds a one-off flow (e.g. a background trade that accepts next block). */
  spawn(flow: Flow): void {
    this.world.flows.push(flow);
  }
}

function decodeResponses(data: Uint8Array): Record<string, unknown>[] {
  if (!data || data.length === 0) return [];
  return TxMsgData.decode(data).msgResponses.map((r) => {
    const name = r.typeUrl.slice(1);
    return lookupContractType(name) ? decodeMessage(name, r.value) : {};
  });
}

function cosmosEvmMessage(raw: string, from: string): Msg {
  return {
    typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTx',
    value: { from: hexToBytes(from.slice(2).toLowerCase()), raw: getBytes(raw) },
  };
}

/** Minimal big-endian bytes of a non-negative integer (empty for 0), as Ethermint stores v. */
function intBytes(n: bigint): Uint8Array {
  if (n === 0n) return new Uint8Array(0);
  const hex = n.toString(16);
  return hexToBytes(hex.length % 2 ? `0${hex}` : hex);
}

/** The Ethermint layout: the signed fields of a DynamicFeeTx packed in an Any. */
function ethermintMessage(raw: string, from: string): Msg {
  const tx = Transaction.from(raw);
  const sig = tx.signature!;
  const fields = {
    chain_id: tx.chainId.toString(),
    nonce: String(tx.nonce),
    gas_tip_cap: String(tx.maxPriorityFeePerGas ?? 0n),
    gas_fee_cap: String(tx.maxFeePerGas ?? 0n),
    gas: tx.gasLimit.toString(),
    to: tx.to ?? '',
    value: tx.value.toString(),
    data: getBytes(tx.data),
    accesses: [],
    v: intBytes(BigInt(sig.yParity)),
    r: getBytes(sig.r),
    s: getBytes(sig.s),
  };
  const data = {
    type_url: '/ethermint.evm.v1.DynamicFeeTx',
    value: encodeMessage('ethermint.evm.v1.DynamicFeeTx', fields),
  };
  return { typeUrl: '/ethermint.evm.v1.MsgEthereumTx', value: { data, size: 0, hash: tx.hash!, from } };
}
