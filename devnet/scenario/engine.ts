/**
 * The scenario engine: builds the cast, the svc app (genesis balances of the
 * gas and stable denoms, the bridge authority) and a DevnetChain, then plans
 * and produces one block at a time: flows first (each at most one step,
 * within the block's tx budget), then background traffic, then
 * `produceBlock(time)`. The same engine drives history mode (explicit times)
 * and live mode (wall-clock times). Live mode may run in services mode (the
 * lender and the desk signed for by app services; see enterLiveMode).
 */
import type { ChainConfig } from '../../src/lib/config';
import { DEFAULT_CHAIN_CONFIG } from '../../src/lib/config';
import { createSvcApp, type AppStateSnapshot, type Genesis, type Retention, type SvcApp } from '../app';
import type { AbciEvent, Application } from '../app/types';
import { DevnetChain, upperHex, type BlockArchive, type StoredBlock } from '../chain';
import { createCast, type Cast } from './accounts';
import { fillBlock } from './background';
import { Ctx, type LaunchedAsset, type ScenarioConfig, type World } from './context';
import type { Flow } from './flow';
import { bridgeFlow } from './flows/bridge';
import { dexFlow } from './flows/dex';
import { encumbranceLoop } from './flows/encumbrance';
import { evmFlow } from './flows/evm';
import { failuresFlow } from './flows/failures';
import { attestationLoop, bridgeableFlow, delegationLoop, policyOverrideFlow, splitFlow } from './flows/governance';
import { launchFlows } from './flows/launch';
import { loanLoop } from './flows/loan';
import { distributionLoop } from './flows/payout';
import { DESK_QUOTES, deskQuotesFlow } from './flows/services';
import { rfqLoop, standingOfferFlow } from './flows/settlement';
import { bondRedemptionFlow, liquidationFlow } from './flows/waterfall';
import { Prng } from './prng';
import { buildSummary, SummaryRecorder, type ScenarioSummary } from './summary';
import { ChainView } from './view';

/** The chain version `oldChain` answers as: before the token registry (0.9.0) and RIGHT_OUT (0.12.0). */
export const OLD_CHAIN_VERSION = '0.8.3';

export interface EngineOptions {
  seed: string | number;
  txsPerBlock?: number;
  /** nominal time between blocks (expiries are planned against it) */
  blockIntervalMs: number;
  /** largest time jump the history will contain (0 in live mode) */
  maxJumpMs?: number;
  /** genesis time (unix ms), before the first block */
  genesisTimeMs: number;
  oldChain?: boolean;
  /**
   * false: EVM outcomes only as Cosmos EVM / Ethermint chains report them (the ethereum_tx event
   * and the MsgEthereumTxResponse), without svc.evm.v1.EventEthereumTxExecuted (default true)
   */
  evmOutcomeEvent?: boolean;
  chain?: Partial<ChainConfig>;
  /** skip secp256k1 verification at CheckTx: only for trusted benchmark generation, never for a served devnet */
  skipSignatureVerification?: boolean;
  holders?: number;
  /** when set, a flow that throws is reported here and dropped (live mode); otherwise the error propagates */
  onFlowError?: (flow: string, error: unknown) => void;
  /** what stays in memory; default everything (every state version, every block) */
  memory?: MemoryOptions;
}

/** Bounds on what the devnet holds in memory, for a devnet that runs for days (`npm start`). */
export interface MemoryOptions {
  /** state versions kept: the recent heights `abci_query` answers for (older: the pruned-height error) */
  stateRetention?: Retention;
  /** blocks written through to this archive; only `recentBlocks` of them stay in memory */
  archive?: BlockArchive;
  recentBlocks?: number;
}

/**
 * What a restart needs besides the archived blocks: the app's latest state and the assets the
 * scenario launched. Flows are not in it (they hold closures): a restored engine starts its
 * loops afresh from the chain state (ScenarioEngine.restore).
 */
export interface ScenarioSnapshot {
  height: number;
  /** the chain's genesis time (unix ms), from which genesis and block 1 were made */
  genesisTimeMs: number;
  app: AppStateSnapshot;
  assets: (Omit<LaunchedAsset, 'issuer'> & { issuer: string })[];
}

export interface LiveModeOptions {
  /**
   * The lender and desk keys (SERVICE_ROLES) are signed for by app services
   * over RPC: the scenario never signs as them and keeps only the other side
   * of their flows (borrowers pledge and repay, holders offer the desk shares
   * and accept its proposals). Default false: the scenario plays every role.
   */
  servicesMode?: boolean;
}

const RICH = 10n ** 13n;
const COMFORTABLE = 10n ** 12n;

function genesisFor(cast: Cast, config: ScenarioConfig): Genesis {
  const wealthy = new Set([
    'issuer-community',
    'issuer-dividend',
    'issuer-equity',
    'issuer-bond',
    'operator',
    'lender',
    'desk',
  ]);
  const balances = cast.all.map((a) => ({
    address: a.address,
    coins: [
      { denom: config.gasDenom, amount: COMFORTABLE.toString() },
      { denom: config.stableDenom, amount: (wealthy.has(a.name) ? RICH : COMFORTABLE).toString() },
    ],
  }));
  for (const e of cast.evm)
    balances.push({ address: e.address, coins: [{ denom: config.gasDenom, amount: COMFORTABLE.toString() }] });
  return { balances, bridgeAuthority: cast.roles.bridge.address };
}

/**
 * The flows a restored engine runs: the loops, which act on whatever the chain holds (launched
 * assets, balances, positions). The one-off flows (launches, pools, routes, the liquidation…)
 * ran in the history before the first snapshot and are not started again.
 */
function restartFlows(): Flow[] {
  return [attestationLoop(), distributionLoop(), loanLoop(), rfqLoop(), encumbranceLoop(), delegationLoop()];
}

function initialFlows(): Flow[] {
  return [
    ...launchFlows(),
    attestationLoop(),
    dexFlow(),
    failuresFlow(),
    distributionLoop(),
    loanLoop(),
    rfqLoop(),
    standingOfferFlow(),
    encumbranceLoop(),
    delegationLoop(),
    splitFlow(),
    policyOverrideFlow(),
    bridgeableFlow(),
    bridgeFlow(),
    evmFlow(),
    liquidationFlow(),
    bondRedemptionFlow(),
  ];
}

/** Where the observed app leaves the Begin/EndBlock events of the block being produced. */
interface BlockEventSink {
  events: AbciEvent[];
}

/** The app behind a transparent proxy that hands each block's Begin/EndBlock events (with mode) to `sink`. */
function observeBlockEvents(app: SvcApp, sink: (events: AbciEvent[]) => void): Application {
  const tagged = (events: AbciEvent[], mode: string) =>
    events.map((e) => ({ type: e.type, attributes: [...e.attributes, { key: 'mode', value: mode }] }));
  return new Proxy(app, {
    get(target, prop) {
      if (prop === 'beginBlock' || prop === 'endBlock') {
        return (height: number, timeMs: number) => {
          const events = target[prop](height, timeMs);
          sink(tagged(events, prop === 'beginBlock' ? 'BeginBlock' : 'EndBlock'));
          return events;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function restoreApp(app: SvcApp, chain: DevnetChain, snapshot: ScenarioSnapshot): void {
  const tip = chain.latestBlock();
  if (snapshot.app.height !== snapshot.height || (tip && upperHex(tip.appHash) !== snapshot.app.appHash))
    throw new Error(
      `snapshot at height ${snapshot.height} does not match the archived block ${chain.height} (app hash differs)`,
    );
  app.restoreState(snapshot.app);
}

function restoredAssets(snapshot: ScenarioSnapshot, cast: Cast): Map<string, LaunchedAsset> {
  const byName = new Map(cast.all.map((a) => [a.name, a]));
  return new Map(
    snapshot.assets.map((a) => {
      const issuer = byName.get(a.issuer);
      if (!issuer) throw new Error(`snapshot: asset ${a.key} has issuer ${a.issuer}, not in the cast`);
      return [a.key, { ...a, issuer }];
    }),
  );
}

export class ScenarioEngine {
  private readonly recorder = new SummaryRecorder();

  private constructor(
    readonly world: World,
    private readonly blockEvents: BlockEventSink,
    private onFlowError?: EngineOptions['onFlowError'],
  ) {}

  static async create(options: EngineOptions): Promise<ScenarioEngine> {
    return ScenarioEngine.build(options);
  }

  /**
   * An engine that goes on from a snapshot: blocks up to its height come from the archive
   * (`options.memory.archive`, which must hold them), the app state from the snapshot, the
   * launched assets as they were. Accounts' sequences and everything flows decide on are read
   * from the restored state; the loops start afresh (restartFlows) and flows that were under
   * way are abandoned: their pending settlements and encumbrances expire on chain.
   */
  static async restore(options: EngineOptions, snapshot: ScenarioSnapshot): Promise<ScenarioEngine> {
    return ScenarioEngine.build({ ...options, genesisTimeMs: snapshot.genesisTimeMs }, snapshot);
  }

  private static async build(options: EngineOptions, snapshot?: ScenarioSnapshot): Promise<ScenarioEngine> {
    const chainConfig: ChainConfig = { ...DEFAULT_CHAIN_CONFIG, ...options.chain };
    const seed = String(options.seed);
    const config: ScenarioConfig = {
      seed,
      hrp: chainConfig.hrp,
      gasDenom: chainConfig.gasDenom,
      stableDenom: chainConfig.stableDenom,
      chainId: chainConfig.chainId,
      evmChainId: chainConfig.evmChainId,
      oldChain: options.oldChain ?? false,
      txsPerBlock: options.txsPerBlock ?? 10,
      intervalMs: options.blockIntervalMs,
      maxJumpMs: options.maxJumpMs ?? 0,
      servicesMode: false,
      live: false,
    };
    const cast = await createCast({ seed, hrp: config.hrp, holders: options.holders });
    const genesis = genesisFor(cast, config);
    const app = createSvcApp({
      genesis,
      chain: chainConfig,
      version: config.oldChain ? OLD_CHAIN_VERSION : undefined,
      evmOutcomeEvent: options.evmOutcomeEvent,
      stateRetention: options.memory?.stateRetention,
    });
    const sink: BlockEventSink = { events: [] };
    const observed = observeBlockEvents(app, (events) => sink.events.push(...events));
    const chain = await DevnetChain.create({
      app: observed,
      chainId: config.chainId,
      hrp: config.hrp,
      genesisTimeMs: options.genesisTimeMs,
      appState: JSON.parse(JSON.stringify(genesis)),
      skipSignatureVerification: options.skipSignatureVerification ?? false,
      archive: options.memory?.archive,
      recentBlocks: options.memory?.recentBlocks,
      resumeAt: snapshot?.height,
    });
    // the app is restored after the chain is made: the chain takes genesis' app hash from the app
    if (snapshot) restoreApp(app, chain, snapshot);
    const world: World = {
      chain,
      app,
      view: new ChainView(app),
      cast,
      config,
      // a restored engine draws from its own stream: its blocks are new, not a replay
      rng: new Prng(snapshot ? `${seed}/scenario/restart/${snapshot.height}` : `${seed}/scenario`),
      assets: snapshot ? restoredAssets(snapshot, cast) : new Map(),
      handles: new Map(),
      flows: snapshot ? restartFlows() : initialFlows(),
    };
    return new ScenarioEngine(world, sink, options.onFlowError);
  }

  /** The app state and launched assets at the current height (see ScenarioSnapshot). */
  snapshot(): ScenarioSnapshot {
    return {
      height: this.chain.height,
      genesisTimeMs: this.chain.genesisTimeMs,
      app: this.app.exportState(),
      assets: [...this.world.assets.values()].map((a) => ({ ...a, issuer: a.issuer.name })),
    };
  }

  get chain(): DevnetChain {
    return this.world.chain;
  }

  get app(): SvcApp {
    return this.world.app;
  }

  /**
   * Switches planning to live blocks: expiries are planned against `blockMs`
   * without jumps, and a failing flow is reported and dropped instead of
   * stopping block production. May be called again (a journal replay enters
   * live mode before the live loop does): services mode then keeps its flows'
   * state, so the scenario plans the same blocks as it did the first time.
   */
  enterLiveMode(
    blockMs: number,
    onFlowError: NonNullable<EngineOptions['onFlowError']>,
    options: LiveModeOptions = {},
  ): void {
    this.world.config.intervalMs = blockMs;
    this.world.config.maxJumpMs = 0;
    this.world.config.live = true;
    this.onFlowError = onFlowError;
    this.setServicesMode(options.servicesMode ?? false);
  }

  /** Services mode adds the holders' answers to the desk service (from the current height on); leaving it removes them. */
  private setServicesMode(on: boolean): void {
    this.world.config.servicesMode = on;
    const present = this.world.flows.some((f) => f.name === DESK_QUOTES);
    if (on && !present) this.world.flows.push(deskQuotesFlow(this.world.chain.height));
    if (!on && present) this.world.flows = this.world.flows.filter((f) => f.name !== DESK_QUOTES);
  }

  /** Plans the next block at `timeMs` (flows, then background) and produces it. */
  async runBlock(timeMs: number): Promise<StoredBlock> {
    const ctx = new Ctx(this.world, this.world.chain.height + 1, timeMs);
    if (this.world.config.txsPerBlock > 0) {
      try {
        await this.runFlows(ctx);
        await fillBlock(ctx);
      } catch (e) {
        // live: the block is made with what was submitted so far (a chain never stops for one bad tx)
        if (!this.onFlowError) throw e;
        this.onFlowError('block filler', e);
      }
    }
    this.blockEvents.events = [];
    const block = this.world.chain.produceBlock(timeMs);
    const txs = block.txHashes.map((h) => this.world.chain.tx(h));
    this.recorder.recordBlock(block, txs, this.world.handles, this.blockEvents.events);
    // the map only names the messages of txs for the recorder; flows keep their own handles
    for (const h of block.txHashes) this.world.handles.delete(h);
    return block;
  }

  private async runFlows(ctx: Ctx): Promise<void> {
    const flows = this.world.flows;
    const start = flows.length ? ctx.height % flows.length : 0;
    const order = [...flows.slice(start), ...flows.slice(0, start)];
    for (const flow of order) {
      if (ctx.budgetLeft <= 0) break;
      if (!flow.active) continue;
      try {
        await flow.step(ctx);
      } catch (e) {
        if (!this.onFlowError) throw e;
        this.onFlowError(flow.name, e);
        this.world.flows = this.world.flows.filter((f) => f !== flow);
      }
    }
    this.world.flows = this.world.flows.filter((f) => f.active);
  }

  summary(): ScenarioSummary {
    return buildSummary(this.world, this.recorder);
  }
}
