/**
 * What every typed-event handler needs about the event it handles: position
 * (height, tx_index, event_index), tx hash, block time, mode, the decoded
 * proto-JSON, and the subjects it declares for the activity feeds.
 */
import type { CosmosBlock, CosmosEvent } from '@subql/types-cosmos';
import { decodeTypedEvent } from '../../lib/typed-event';
import { enterBlock, flushDirty } from './block-cache';
import { recordActivity } from './activity';
import { copyFromHost } from './host';
import { seqOf } from './values';

export interface EventCtx<T> {
  height: number;
  /** -1 for block-level events */
  txIndex: number;
  /** position in the tx's event list, or in the block's finalize_block_events */
  eventIndex: number;
  /** null for block-level events */
  txHash: string | null;
  blockTime: Date;
  /** block time in unix nanoseconds */
  blockTimeNs: bigint;
  /** BeginBlock / EndBlock for block-level events */
  mode: string | undefined;
  type: string;
  decoded: T;
  seq: bigint;
  /** activity subjects: asset ids and bech32 accounts */
  assets: Set<string>;
  accounts: Set<string>;
  /** drifts recorded for this event (makes Drift ids unique) */
  driftCount: number;
}

interface Attr {
  key: string;
  value: string;
}

/** A Comet 0.38 event (string attributes). */
interface RawEvent {
  type: string;
  attributes: readonly Attr[];
}

/** Block time with nanoseconds (cosmjs DateWithNanoseconds). */
export function blockTimeOf(block: CosmosBlock): { time: Date; ns: bigint } {
  const t = block.header.time as Date & { nanoseconds?: number };
  const ms = t.getTime();
  const ns = BigInt(ms) * 1_000_000n + BigInt(t.nanoseconds ?? 0);
  return { time: new Date(ms), ns };
}

function sameAttributes(a: readonly Attr[], b: readonly Attr[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].key !== b[i].key || a[i].value !== b[i].value) return false;
  return true;
}

/** Position of `event` in `list`: by identity, else by content (proxies of the sandbox may not keep identity). */
function positionIn(list: readonly RawEvent[], event: RawEvent): number {
  const byIdentity = list.indexOf(event);
  if (byIdentity >= 0) return byIdentity;
  return list.findIndex((e) => e.type === event.type && sameAttributes(e.attributes, event.attributes));
}

/** Block-level events of a block in finalize_block_events order (begin/end kinds of older Comet versions included). */
export function blockLevelEvents(block: CosmosBlock): CosmosEvent[] {
  return block.events.filter((e) => !e.tx);
}

export function modeOf(attributes: readonly Attr[]): string | undefined {
  return attributes.find((a) => a.key === 'mode')?.value;
}

/**
 * Context of a typed event, or null when the event must not change state:
 * a typed event of a failed tx (applied = false), or one that does not decode.
 */
export function typedEventContext<T>(event: CosmosEvent): EventCtx<T> | null {
  if (event.tx && event.tx.tx.code !== 0) return null;
  const attributes = copyFromHost(event.event.attributes as unknown as Attr[]);
  const decoded = decodeTypedEvent(event.event.type, attributes);
  if (!decoded) return null;
  const height = event.block.header.height;
  enterBlock(height);
  const blockLevel = !event.tx;
  const txIndex = blockLevel ? -1 : event.tx.idx;
  const eventIndex = blockLevel
    ? blockLevelEvents(event.block).findIndex((e) => e.idx === event.idx)
    : positionIn(event.tx.tx.events as unknown as RawEvent[], event.event as unknown as RawEvent);
  const { time, ns } = blockTimeOf(event.block);
  return {
    height,
    txIndex,
    eventIndex,
    txHash: blockLevel ? null : event.tx.hash,
    blockTime: time,
    blockTimeNs: ns,
    mode: blockLevel ? modeOf(attributes) : undefined,
    type: event.event.type,
    decoded: decoded as T,
    seq: seqOf(height, txIndex, eventIndex),
    assets: new Set(),
    accounts: new Set(),
    driftCount: 0,
  };
}

/** Ends a handler: writes the activity entries of the declared subjects and every changed entity. */
export async function finish(ctx: EventCtx<unknown>): Promise<void> {
  await recordActivity(ctx);
  await flushDirty();
}

/** Declares an account subject (ignores empty values). */
export function subjectAccount(ctx: EventCtx<unknown>, ...addresses: (string | null | undefined)[]): void {
  for (const a of addresses) if (a) ctx.accounts.add(a);
}

/** Declares an asset subject (ignores empty values). */
export function subjectAsset(ctx: EventCtx<unknown>, ...assetIds: (string | null | undefined)[]): void {
  for (const a of assetIds) if (a) ctx.assets.add(a);
}
