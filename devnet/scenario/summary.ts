/**
 * What a generated history contains, for tests, E2E comparisons and the CLI:
 * counts per message type URL, per failed codespace, per event type (tx and
 * block-level, with mode), and final statuses read back from the app's state
 * (settlements, encumbrances, delegations, assets, bridge routes).
 */
import type { AbciEvent } from '../app/types';
import type { StoredBlock, StoredTx } from '../chain';
import type { Handle, World } from './context';
import { NATIVE_ROUTE, RIGHT_ROUTE, SYNTHETIC_ROUTE } from './flows/bridge';
import type { ChainView } from './view';

type Counts = Record<string, number>;

export interface ScenarioSummary {
  seed: string;
  chainId: string;
  appVersion: string;
  height: number;
  firstBlockTime: string | null;
  lastBlockTime: string | null;
  txs: { total: number; ok: number; failed: number };
  /** every message of every committed tx the scenario submitted */
  messages: Counts;
  /** first message of each tx (the API's `methods` facet) */
  firstMessages: Counts;
  /** failed txs per codespace, and per `codespace/code` */
  codespaces: Counts;
  failures: Counts;
  /** events of successful txs per type */
  txEvents: Counts;
  /** block-level events per `<mode> <type>` */
  blockEvents: Counts;
  evm: { success: number; reverted: number; revertReasons: Counts };
  bridge: { out: number; in: number; rejected: Counts };
  statuses: {
    settlement: Counts;
    settlementCancelReasons: Counts;
    encumbrance: Counts;
    delegation: Counts;
    asset: Counts;
  };
  assets: {
    key: string;
    template: string;
    symbol: string;
    assetId: string;
    metaHash: string;
    doc: Record<string, string>;
  }[];
  accounts: Record<string, string>;
  routes: string[];
}

const bump = (c: Counts, key: string, n = 1) => {
  c[key] = (c[key] ?? 0) + n;
};

function attribute(e: AbciEvent, key: string): string | undefined {
  return e.attributes.find((a) => a.key === key)?.value;
}

/** Counts gathered block by block while the history is produced. */
export class SummaryRecorder {
  readonly messages: Counts = {};
  readonly firstMessages: Counts = {};
  readonly codespaces: Counts = {};
  readonly failures: Counts = {};
  readonly txEvents: Counts = {};
  readonly blockEvents: Counts = {};
  readonly evm = { success: 0, reverted: 0, revertReasons: {} as Counts };
  readonly bridge = { out: 0, in: 0, rejected: {} as Counts };
  txs = { total: 0, ok: 0, failed: 0 };
  firstBlockTimeMs: number | null = null;
  lastBlockTimeMs: number | null = null;

  recordBlock(
    block: StoredBlock,
    txs: (StoredTx | undefined)[],
    handles: Map<string, Handle>,
    blockEvents: AbciEvent[],
  ): void {
    const timeMs = Number(block.header.time.seconds) * 1000 + Math.floor(block.header.time.nanos / 1e6);
    this.firstBlockTimeMs ??= timeMs;
    this.lastBlockTimeMs = timeMs;
    txs.forEach((tx) => tx && this.recordTx(tx, handles.get(tx.hash)));
    for (const e of blockEvents) bump(this.blockEvents, `${attribute(e, 'mode') ?? '?'} ${e.type}`);
  }

  private recordTx(tx: StoredTx, handle: Handle | undefined): void {
    const typeUrls = handle?.typeUrls ?? ['(external)'];
    this.txs.total += 1;
    typeUrls.forEach((t) => bump(this.messages, t));
    bump(this.firstMessages, typeUrls[0]);
    const r = tx.result;
    if (r.code !== 0) {
      this.txs.failed += 1;
      bump(this.codespaces, r.codespace);
      bump(this.failures, `${r.codespace}/${r.code}`);
      if (typeUrls[0] === '/svc.bridge.v1.MsgBridgeOut' && r.codespace === 'bridge')
        bump(this.bridge.rejected, `bridge/${r.code}`);
      return;
    }
    this.txs.ok += 1;
    for (const e of r.events) {
      bump(this.txEvents, e.type);
      if (e.type === 'svc.bridge.v1.EventBridgedOut') this.bridge.out += 1;
      if (e.type === 'svc.bridge.v1.EventBridgedIn') this.bridge.in += 1;
      if (e.type === 'svc.evm.v1.EventEthereumTxExecuted') this.recordEvm(e);
    }
  }

  private recordEvm(e: AbciEvent): void {
    if (attribute(e, 'status') === '1') {
      this.evm.success += 1;
      return;
    }
    this.evm.reverted += 1;
    const data = JSON.parse(attribute(e, 'return_data') ?? '""') as string;
    bump(this.evm.revertReasons, decodeErrorString(data) ?? (JSON.parse(attribute(e, 'vm_error') ?? '""') as string));
  }
}

/** ABI-decoded Error(string) of revert data, or null. */
export function decodeErrorString(data: string): string | null {
  if (!data.startsWith('0x08c379a0') || data.length < 10 + 128) return null;
  const body = Buffer.from(data.slice(10), 'hex');
  const length = Number(BigInt('0x' + body.subarray(32, 64).toString('hex')));
  return body.subarray(64, 64 + length).toString('utf8');
}

/** Counts of a status field over ids 1, 2, ... until the first unknown id. */
function countStatuses(
  lookup: (id: number) => Record<string, unknown> | null,
  field: string,
  extra?: (r: Record<string, unknown>) => void,
): Counts {
  const out: Counts = {};
  for (let id = 1; ; id++) {
    const record = lookup(id);
    if (!record) return out;
    bump(out, String(record[field] ?? ''));
    extra?.(record);
  }
}

function finalStatuses(view: ChainView, world: World): ScenarioSummary['statuses'] {
  const settlementCancelReasons: Counts = {};
  const settlement = countStatuses(
    (id) => view.settlement(id),
    'status',
    (s) => {
      if (s.status === 'STATUS_CANCELLED') bump(settlementCancelReasons, String(s.cancel_reason) || '(party)');
    },
  );
  const encumbrance = countStatuses((id) => view.encumbrance(id), 'status');
  const delegation = countStatuses((id) => view.delegation(id), 'ended');
  const asset: Counts = {};
  for (const a of world.assets.values()) bump(asset, view.asset(a.assetId)?.status ?? 'unknown');
  return { settlement, settlementCancelReasons, encumbrance, delegation, asset };
}

export function buildSummary(world: World, recorder: SummaryRecorder): ScenarioSummary {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const accounts: Record<string, string> = {};
  for (const a of world.cast.all) accounts[a.name] = a.address;
  for (const e of world.cast.evm) accounts[e.name] = e.address;
  return {
    seed: world.config.seed,
    chainId: world.config.chainId,
    appVersion: world.app.version,
    height: world.chain.height,
    firstBlockTime: iso(recorder.firstBlockTimeMs),
    lastBlockTime: iso(recorder.lastBlockTimeMs),
    txs: { ...recorder.txs },
    messages: { ...recorder.messages },
    firstMessages: { ...recorder.firstMessages },
    codespaces: { ...recorder.codespaces },
    failures: { ...recorder.failures },
    txEvents: { ...recorder.txEvents },
    blockEvents: { ...recorder.blockEvents },
    evm: { ...recorder.evm, revertReasons: { ...recorder.evm.revertReasons } },
    bridge: { ...recorder.bridge, rejected: { ...recorder.bridge.rejected } },
    statuses: finalStatuses(world.view, world),
    assets: [...world.assets.values()].map((a) => ({
      key: a.key,
      template: a.template,
      symbol: a.symbol,
      assetId: a.assetId,
      metaHash: a.metaHash,
      doc: a.doc,
    })),
    accounts,
    routes: [NATIVE_ROUTE, SYNTHETIC_ROUTE, RIGHT_ROUTE].filter((r) => world.view.route(r) !== null),
  };
}
