/**
 * One signer per key: a queue that signs and broadcasts that key's txs one at a time.
 *
 * It reads the account number and committed sequence once (auth Account query) and then
 * keeps the next sequence itself, so several txs of one key enter one block. A CheckTx
 * "account sequence mismatch" (sdk/32) moves it to the sequence the chain expects (from the
 * error text, else a re-read) and signs again, a bounded number of times.
 *
 * Gas: with `gas` settings, each tx's gas limit is the chain's simulation of it (sent with
 * an empty signature, so no signed form other than the recorded one ever leaves the
 * process) × `adjustment`, or `base + perMessage × messages` when the chain serves no
 * simulation; never below the caller's floor (an out-of-gas retry asks for twice the last
 * limit), never above `max`. Without them every tx carries `fee.gas`. The fee amount is
 * `fee.amount` whatever the gas (the devnet has no minimum gas price).
 *
 * Every signed tx is handed to `record` before it is broadcast, so the intent log holds the
 * exact bytes (and so the only sequence) that can ever reach a block for that action.
 */
import type { EncodeObject, OfflineDirectSigner } from '@cosmjs/proto-signing';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { signTx, type TxFee } from '../../src/client/registry';
import { txHash } from './tx-hash';
import type { AccountState, BroadcastResult, ChainClient, CommittedTx, Simulation } from './chain-client';

export interface SignedTx {
  /** upper-case hex consensus hash */
  hash: string;
  bytes: Uint8Array;
  sequence: bigint;
  /** the tx's gas limit */
  gas: bigint;
}

/** APP_GAS_ADJUSTMENT, APP_TX_GAS_BASE, APP_TX_GAS_PER_MSG, APP_TX_GAS (the cap). */
export interface GasSettings {
  adjustment: number;
  base: bigint;
  perMessage: bigint;
  max: bigint;
}

/** The gas limit of a tx of `messages` messages from its simulation (or none), at least `floor`, at most `max`. */
export function estimateGas(simulation: Simulation, messages: number, settings: GasSettings, floor = 0n): bigint {
  const estimate =
    'gasUsed' in simulation
      ? BigInt(Math.ceil(Number(simulation.gasUsed) * settings.adjustment))
      : settings.base + settings.perMessage * BigInt(messages);
  const wanted = estimate > floor ? estimate : floor;
  return wanted < settings.max ? wanted : settings.max;
}

/** An out-of-gas DeliverTx (sdk/11): the next attempt asks for more. */
export const isOutOfGas = (r: { code: number | null; codespace: string | null }) =>
  r.code === 11 && r.codespace === 'sdk';

export interface SignerOptions {
  /** the fee amount of every tx; its gas is every tx's limit unless `gas` is given */
  fee: TxFee;
  /** estimate each tx's gas (see above) */
  gas?: GasSettings;
  /** re-signs after a sequence mismatch before giving up (default 3) */
  maxSequenceRetries?: number;
  /** tx lookups while waiting for inclusion (default every 250 ms) */
  pollMs?: number;
}

export interface Submission {
  signed: SignedTx;
  checkTx: BroadcastResult;
}

/** The tx did not appear in a block in time: it may still; the caller decides. */
export class InclusionTimeout extends Error {
  constructor(
    readonly hash: string,
    readonly waitedMs: number,
  ) {
    super(`tx ${hash} not in a block after ${waitedMs} ms`);
    this.name = 'InclusionTimeout';
  }
}

export const SEQUENCE_MISMATCH = { codespace: 'sdk', code: 32 } as const;
const EXPECTED_SEQUENCE_RE = /expected (\d+), got (\d+)/;

export function isSequenceMismatch(r: Pick<BroadcastResult, 'code' | 'codespace'>): boolean {
  return r.code === SEQUENCE_MISMATCH.code && r.codespace === SEQUENCE_MISMATCH.codespace;
}

/** The sequence the chain asked for in a mismatch log, when it says. */
export function expectedSequence(log: string): bigint | undefined {
  const m = EXPECTED_SEQUENCE_RE.exec(log);
  return m ? BigInt(m[1]) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ChainSigner {
  private account: AccountState | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly maxRetries: number;
  private readonly pollMs: number;

  constructor(
    private readonly chain: ChainClient,
    private readonly wallet: OfflineDirectSigner,
    readonly address: string,
    private readonly options: SignerOptions,
  ) {
    this.maxRetries = options.maxSequenceRetries ?? 3;
    this.pollMs = options.pollMs ?? 250;
  }

  get chainClient(): ChainClient {
    return this.chain;
  }

  /** Forgets the kept sequence: the next tx re-reads the account (after a crash recovery or an unknown broadcast outcome). */
  resync(): void {
    this.account = undefined;
  }

  /**
   * Signs `messages` with this key's next sequence, awaits `record(signed)`, broadcasts.
   * Serialised per key. Resolves with CheckTx's answer (code 0: in the mempool); a refusal
   * other than a sequence mismatch resolves too, with its code, and consumes no sequence.
   */
  submit(
    messages: readonly EncodeObject[],
    record: (signed: SignedTx) => Promise<void>,
    memo = '',
    minGas = 0n,
  ): Promise<Submission> {
    const run = this.queue.then(() => this.signAndBroadcast(messages, record, memo, minGas));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Re-broadcasts bytes signed earlier (crash recovery), in the key's queue. */
  rebroadcast(bytes: Uint8Array): Promise<BroadcastResult> {
    const run = this.queue.then(() => this.chain.broadcast(bytes));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Polls `tx` by hash until the tx is in a block; InclusionTimeout after `timeoutMs`. */
  async waitForInclusion(hash: string, timeoutMs: number): Promise<CommittedTx> {
    const started = Date.now();
    for (;;) {
      const found = await this.chain.findTx(hash);
      if (found) return found;
      if (Date.now() - started >= timeoutMs) throw new InclusionTimeout(hash, Date.now() - started);
      await sleep(this.pollMs);
    }
  }

  private async current(): Promise<AccountState> {
    if (!this.account) {
      const account = await this.chain.account(this.address);
      if (!account)
        throw new Error(`account ${this.address} does not exist on the chain yet (it needs funds before it can sign)`);
      this.account = account;
    }
    return this.account;
  }

  private async sign(messages: readonly EncodeObject[], memo: string, minGas: bigint): Promise<SignedTx> {
    const { accountNumber, sequence } = await this.current();
    const signWith = (gas: bigint) =>
      signTx(this.wallet, {
        messages,
        accountNumber,
        sequence,
        chainId: this.chain.chainId,
        fee: { ...this.options.fee, gas },
        memo,
        signerAddress: this.address,
      });
    const gas = await this.gasFor(messages.length, minGas, signWith);
    const bytes = await signWith(gas);
    return { hash: txHash(bytes), bytes, sequence, gas };
  }

  private async gasFor(
    messages: number,
    minGas: bigint,
    signWith: (gas: bigint) => Promise<Uint8Array>,
  ): Promise<bigint> {
    const settings = this.options.gas;
    const fixed = BigInt(this.options.fee.gas);
    if (!settings) return minGas > fixed ? minGas : fixed;
    // the chain sees this form with an empty signature only: it can never be included
    const probe = TxRaw.decode(await signWith(settings.max));
    const unsigned = TxRaw.encode({ ...probe, signatures: probe.signatures.map(() => new Uint8Array(0)) }).finish();
    return estimateGas(await this.chain.simulate(unsigned), messages, settings, minGas);
  }

  private async signAndBroadcast(
    messages: readonly EncodeObject[],
    record: (signed: SignedTx) => Promise<void>,
    memo: string,
    minGas: bigint,
  ): Promise<Submission> {
    for (let attempt = 0; ; attempt++) {
      const signed = await this.sign(messages, memo, minGas);
      await record(signed);
      let checkTx: BroadcastResult;
      try {
        checkTx = await this.chain.broadcast(signed.bytes);
      } catch (e) {
        this.resync(); // the node may or may not have taken it: re-read before the next tx
        throw e;
      }
      if (checkTx.code === 0) {
        this.account!.sequence = signed.sequence + 1n;
        return { signed, checkTx: { ...checkTx, hash: checkTx.hash || signed.hash } };
      }
      if (!isSequenceMismatch(checkTx) || attempt >= this.maxRetries) return { signed, checkTx };
      const expected = expectedSequence(checkTx.log);
      if (expected === undefined) this.resync();
      else this.account!.sequence = expected;
    }
  }
}
