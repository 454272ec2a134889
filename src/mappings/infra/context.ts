/**
 * What a handler is given: the event (or message) it handles, where it sits in
 * the chain (height, tx_index, event_index), the block time, the decoded
 * proto-JSON, and the subjects it declares for the activity feeds.
 */
import type { BlockData, TxData } from './host';
import { seqOf } from './values';

export interface EventCtx<T> {
  height: number;
  /** -1 for block-level events */
  txIndex: number;
  /** position in the tx's event list, or among the block's block-level events */
  eventIndex: number;
  /** null for block-level events */
  txHash: string | null;
  /** the tx the event belongs to; null for block-level events */
  tx: TxData | null;
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

/** A transaction message, for the handlers of message types (failed txs included). */
export interface MsgCtx {
  height: number;
  blockTime: Date;
  blockTimeNs: bigint;
  tx: TxData;
  /** position in the tx body */
  msgIndex: number;
  typeUrl: string;
  /** proto-JSON of the message (as Tx.msgs stores it): proto field names, `@type` first */
  json: Record<string, unknown>;
  /** protobuf bytes of the message */
  value: Uint8Array;
}

/**
 * The message's proto-JSON as its generated type: the handler table picks a handler by type URL,
 * so the fields are that type's (any may be absent when the message did not decode).
 */
export function messageJson<T>(ctx: MsgCtx): T {
  return ctx.json as unknown as T;
}

export interface EventPosition {
  /** null for block-level events */
  tx: TxData | null;
  eventIndex: number;
  mode: string | undefined;
}

export function eventContext<T>(block: BlockData, type: string, decoded: T, at: EventPosition): EventCtx<T> {
  return {
    height: block.height,
    txIndex: at.tx ? at.tx.index : -1,
    eventIndex: at.eventIndex,
    txHash: at.tx ? at.tx.hash : null,
    tx: at.tx,
    blockTime: block.time,
    blockTimeNs: block.timeNs,
    mode: at.mode,
    type,
    decoded,
    seq: seqOf(block.height, at.tx ? at.tx.index : -1, at.eventIndex),
    assets: new Set(),
    accounts: new Set(),
    driftCount: 0,
  };
}

/** Declares an account subject (ignores empty values). */
export function subjectAccount(ctx: EventCtx<unknown>, ...addresses: (string | null | undefined)[]): void {
  for (const a of addresses) if (a) ctx.accounts.add(a);
}

/** Declares an asset subject (ignores empty values). */
export function subjectAsset(ctx: EventCtx<unknown>, ...assetIds: (string | null | undefined)[]): void {
  for (const a of assetIds) if (a) ctx.assets.add(a);
}
