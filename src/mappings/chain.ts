/**
 * The one block handler: blocks, every tx (failed ones included, unknown
 * message types kept raw), every event (typed or not; block-level ones with
 * their mode) and the chain counters (tx count, per-method counts, per-day
 * counts). It runs before any other handler of the block.
 */
import type { CosmosBlock, CosmosEvent, CosmosMessage, CosmosTransaction } from '@subql/types-cosmos';
import { decodeTypedEvent } from '../lib/typed-event';
import { Block, ChainTotals, Event, MethodCount, Tx, TxDay } from '../types';
import { handleBridgeEscrowIncomeSwept } from './bridge';
import { enterBlock, flushDirty, load, markDirty, plain, put } from './util/block-cache';
import { blockLevelEvents, blockTimeOf, modeOf } from './util/context';
import { copyFromHost } from './util/host';
import { msgToProtoJson } from './util/protojson';
import { chainTotals } from './util/totals';
import { seqOf } from './util/values';

interface Attr {
  key: string;
  value: string;
}

interface RawEvent {
  type: string;
  attributes: readonly Attr[];
}

function hex(bytes: Uint8Array | undefined): string {
  return bytes ? Buffer.from(bytes).toString('hex').toUpperCase() : '';
}

/** Attributes as plain {key, value} strings. */
function attributesOf(e: RawEvent): Attr[] {
  return e.attributes.map((a) => ({ key: String(a.key), value: String(a.value) }));
}

function msgIndexOf(attributes: readonly Attr[]): number | undefined {
  const v = attributes.find((a) => a.key === 'msg_index')?.value;
  return v === undefined ? undefined : Number(v);
}

function eventRow(height: number, txIndex: number, txHash: string | undefined, eventIndex: number, e: RawEvent, applied: (typed: boolean) => boolean): Event {
  const type = String(e.type);
  const attributes = attributesOf(e);
  const decoded = decodeTypedEvent(type, attributes);
  return Event.create({
    id: `${height}-${txIndex}-${eventIndex}`,
    txHash,
    height,
    txIndex,
    eventIndex,
    type,
    msgIndex: msgIndexOf(attributes),
    mode: txIndex < 0 ? modeOf(attributes) : undefined,
    attributes: JSON.stringify(attributes),
    decoded: decoded ? JSON.stringify(decoded) : undefined,
    applied: applied(decoded !== null),
  });
}

/** proto-JSON of a message; the raw bytes when its type is unknown or does not decode (decodedMsg throws then). */
function messageJson(msg: CosmosMessage, raw: Uint8Array | undefined): Record<string, unknown> {
  let decoded: unknown;
  try {
    decoded = msg.msg.decodedMsg;
  } catch {
    decoded = undefined;
  }
  try {
    return msgToProtoJson(msg.msg.typeUrl, decoded, raw);
  } catch {
    return msgToProtoJson(msg.msg.typeUrl, undefined, raw);
  }
}

function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

async function countTx(method: string, day: string): Promise<void> {
  const mc = (await load(MethodCount, method)) ?? put(MethodCount, MethodCount.create({ id: method, method, count: 0 }));
  mc.count += 1;
  markDirty(mc);
  const td = (await load(TxDay, day)) ?? put(TxDay, TxDay.create({ id: day, day, count: 0 }));
  td.count += 1;
  markDirty(td);
}

function txRow(block: CosmosBlock, tx: CosmosTransaction, msgs: Record<string, unknown>[], time: Date): Tx {
  const r = tx.tx;
  const body = tx.decodedTx.body;
  const fee = tx.decodedTx.authInfo.fee?.amount ?? [];
  const height = block.header.height;
  return Tx.create({
    id: tx.hash,
    hash: tx.hash,
    height,
    txIndex: tx.idx,
    seq: seqOf(height, tx.idx, -1),
    code: r.code,
    codespace: r.codespace ?? '',
    rawLog: r.code !== 0 ? (r.log ?? '') : undefined,
    gasWanted: BigInt(String(r.gasWanted ?? 0)),
    gasUsed: BigInt(String(r.gasUsed ?? 0)),
    msgs: JSON.stringify(msgs),
    fee: JSON.stringify(fee.map((c) => ({ denom: String(c.denom), amount: String(c.amount) }))),
    memo: body.memo ?? '',
    blockTime: time,
    method: String((msgs[0]?.['@type'] as string | undefined) ?? ''),
    msgCount: msgs.length,
    eventCount: r.events.length,
  });
}

function messagesByTx(block: CosmosBlock): Map<string, CosmosMessage[]> {
  const byTx = new Map<string, CosmosMessage[]>();
  for (const m of block.messages) {
    const list = byTx.get(m.tx.hash);
    if (list) list.push(m);
    else byTx.set(m.tx.hash, [m]);
  }
  return byTx;
}

/** Stores the block's txs (counted per method and day) and returns their event rows. */
async function storeTxs(block: CosmosBlock, time: Date): Promise<Event[]> {
  const height = block.header.height;
  const byTx = messagesByTx(block);
  const events: Event[] = [];
  for (const tx of block.transactions) {
    const rawMsgs = tx.decodedTx.body.messages;
    const msgs = (byTx.get(tx.hash) ?? []).map((m) => messageJson(m, rawMsgs[m.idx]?.value));
    const row = put(Tx, txRow(block, tx, msgs, time));
    await countTx(row.method, utcDay(time));
    const ok = tx.tx.code === 0;
    copyFromHost(tx.tx.events as unknown as RawEvent[]).forEach((e, i) => events.push(eventRow(height, tx.idx, tx.hash, i, e, (typed) => typed && ok)));
  }
  return events;
}

/** Rows of the block-level events (finalize_block_events; applied by definition). */
function blockEventRows(height: number, blockEvents: readonly CosmosEvent[]): Event[] {
  const raw = copyFromHost(blockEvents.map((e) => e.event as RawEvent));
  return raw.map((e, i) => eventRow(height, -1, undefined, i, e, () => true));
}

async function countBlock(block: CosmosBlock, time: Date, eventCount: number): Promise<void> {
  const totals: ChainTotals = await chainTotals(block.header.height, time);
  totals.blockCount += 1;
  totals.txCount += block.transactions.length;
  totals.eventCount += BigInt(eventCount);
  totals.latestHeight = block.header.height;
  totals.latestBlockTime = time;
  markDirty(totals);
}

/**
 * Typed events the chain emits at BeginBlock, before the block's txs. The node
 * hands block-level events to handlers after all txs; applying them from the
 * block handler (which runs first) keeps the chain's order, so post-values of
 * the block's txs (e.g. a claim's module_held_after) match. These types have no
 * EventHandler entry in project.yaml. EndBlock events need nothing special.
 */
const BEGIN_BLOCK_HANDLERS: Record<string, (event: CosmosEvent) => Promise<void>> = {
  'svc.bridge.v1.EventEscrowIncomeSwept': handleBridgeEscrowIncomeSwept,
};

async function applyBeginBlockEvents(blockEvents: readonly CosmosEvent[]): Promise<void> {
  for (const event of blockEvents) {
    const handler = BEGIN_BLOCK_HANDLERS[event.event.type];
    if (handler && modeOf(copyFromHost(event.event.attributes as unknown as Attr[])) === 'BeginBlock') await handler(event);
  }
}

export async function handleChainBlock(block: CosmosBlock): Promise<void> {
  const height = block.header.height;
  enterBlock(height);
  const blockEvents = blockLevelEvents(block);
  await applyBeginBlockEvents(blockEvents);
  const { time } = blockTimeOf(block);
  const events = [...(await storeTxs(block, time)), ...blockEventRows(height, blockEvents)];
  put(
    Block,
    Block.create({
      id: String(height),
      height,
      hash: block.block.id,
      time,
      proposer: hex(block.header.proposerAddress),
      txCount: block.transactions.length,
      eventCount: events.length,
    }),
  );
  await countBlock(block, time, events.length);
  if (events.length) await store.bulkCreate('Event', events.map(plain));
  await flushDirty();
}
