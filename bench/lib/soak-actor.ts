/**
 * A key of the soak (bench/soak-services.ts): a devnet-derived account that signs real txs
 * over the chain's RPC, one at a time, and waits for each to be committed. Whoever opens it
 * funds it first (`fund`), from the visitor account the scenario never signs for.
 */
import { DirectSecp256k1Wallet } from '@cosmjs/proto-signing';
import type { ChainClient, CommittedTx } from '../../app-services/chain/chain-client';
import { privateKey } from '../../devnet/scenario/accounts';
import { bankSend, coin, transfer, type Msg } from '../../devnet/scenario/messages';
import { signTx } from '../../src/client/registry';
import type { ChainConfig } from '../../src/lib/config';

const FEE_AMOUNT = '5000';
const GAS_BASE = 400_000;
const GAS_PER_MSG = 60_000;
const COMMIT_WAIT_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SoakActor {
  private constructor(
    readonly name: string,
    readonly address: string,
    private readonly wallet: DirectSecp256k1Wallet,
    private readonly chain: ChainClient,
    private readonly config: ChainConfig,
  ) {}

  static async open(name: string, seed: string, chain: ChainClient, config: ChainConfig): Promise<SoakActor> {
    const wallet = await DirectSecp256k1Wallet.fromKey(privateKey(seed, name), config.hrp);
    const [{ address }] = await wallet.getAccounts();
    return new SoakActor(name, address, wallet, chain, config);
  }

  /**
   * Signs `messages` in one tx, broadcasts it and waits for its block. A tx the chain refuses
   * at CheckTx or fails in its block is returned with its code: an attack's tx may fail.
   */
  async submit(messages: Msg[]): Promise<CommittedTx> {
    const account = await this.chain.account(this.address);
    if (!account) throw new Error(`${this.name} (${this.address}) is not funded`);
    const tx = await signTx(this.wallet, {
      messages,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
      chainId: this.chain.chainId,
      fee: {
        amount: [{ denom: this.config.gasDenom, amount: FEE_AMOUNT }],
        gas: GAS_BASE + GAS_PER_MSG * messages.length,
      },
      signerAddress: this.address,
    });
    const sent = await this.chain.broadcast(tx);
    if (sent.code !== 0)
      return { hash: sent.hash, height: 0, code: sent.code, codespace: sent.codespace, log: sent.log, events: [] };
    const deadline = Date.now() + COMMIT_WAIT_MS;
    for (;;) {
      const committed = await this.chain.findTx(sent.hash);
      if (committed) return committed;
      if (Date.now() > deadline) throw new Error(`${this.name}'s tx ${sent.hash} was not committed within 60 s`);
      await sleep(200);
    }
  }

  /** Like `submit`, but a failed tx is an error: the soak's own set-up steps must succeed. */
  async must(what: string, messages: Msg[]): Promise<CommittedTx> {
    const tx = await this.submit(messages);
    if (tx.code !== 0) throw new Error(`${this.name}: ${what} failed (${tx.codespace}/${tx.code} ${tx.log})`);
    return tx;
  }

  /** Sends `stable` base units of the stable denom, gas for fees, and `units` of every kind of each asset. */
  async fund(
    to: SoakActor,
    stable: bigint,
    assets: { assetId: string; kinds: number[]; units: bigint }[] = [],
  ): Promise<void> {
    const messages: Msg[] = [
      bankSend(this.address, to.address, [
        coin(this.config.stableDenom, stable),
        coin(this.config.gasDenom, 10n ** 9n),
      ]),
    ];
    for (const a of assets)
      for (const kind of a.kinds) messages.push(transfer(this.address, to.address, a.assetId, kind, a.units));
    await this.must(`funding ${to.name}`, messages);
  }
}

/** The first `EventName`'s attribute `key` of a committed tx, JSON-decoded (typed events' values are JSON). */
export function attributeOf(tx: CommittedTx, type: string, key: string): string | undefined {
  const raw = tx.events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;
  return raw === undefined ? undefined : String(JSON.parse(raw));
}
