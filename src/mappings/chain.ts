/**
 * The one block handler: blocks, every tx (failed ones included, unknown
 * message types kept raw), every event (typed or not; block-level ones with
 * their mode) and the chain counters (tx count, per-method counts, per-day
 * counts). It runs before any other handler of the block.
 */
import type { CosmosBlock, CosmosEvent, CosmosMessage, CosmosTransaction } from '@subql/types-cosmos';
import { Block, ChainTotals, MethodCount, Tx, TxDay } from '../types';
import { handleBridgeEscrowIncomeSwept } from './bridge';
import { enterBlock, flushDirty, load, markDirty, put } from './util/block-cache';
import { blockLevelEvents, blockTimeOf, modeOf } from './util/context';
import { copyFromHost, jsonFromHost } from './util/host';
import { msgToProtoJson } from './util/protojson';
import { chainTotals } from './util/totals';
import { seqOf } from './util/values';

interface Attr {
  key: string;
  value: string;
}

function hex(bytes: Uint8Array | undefined): string {
  return bytes ? Buffer.from(bytes).toString('hex').toUpperCase() : '';
}

/**
 * JSON text of raw events as the node hands them ([{type, attributes: [{key, value}]}]),
 * serialised on the host side in one call (see util/host): no per-event work in the sandbox.
 */
function eventsJson(events: readonly unknown[]): string {
  return events.length ? jsonFromHost(events) : '[]';
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
  const mc =
    (await load(MethodCount, method)) ?? put(MethodCount, MethodCount.create({ id: method, method, count: 0 }));
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
    events: eventsJson(r.events),
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

/** Stores the block's txs (counted per method and day); returns how many events they carry. */
async function storeTxs(block: CosmosBlock, time: Date): Promise<number> {
  const byTx = messagesByTx(block);
  let eventCount = 0;
  for (const tx of block.transactions) {
    const rawMsgs = tx.decodedTx.body.messages;
    const msgs = (byTx.get(tx.hash) ?? []).map((m) => messageJson(m, rawMsgs[m.idx]?.value));
    const row = put(Tx, txRow(block, tx, msgs, time));
    await countTx(row.method, utcDay(time));
    eventCount += row.eventCount;
  }
  return eventCount;
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
    if (handler && modeOf(copyFromHost(event.event.attributes as unknown as Attr[])) === 'BeginBlock')
      await handler(event);
  }
}

export async function handleChainBlock(block: CosmosBlock): Promise<void> {
  const height = block.header.height;
  enterBlock(height);
  const blockEvents = blockLevelEvents(block);
  await applyBeginBlockEvents(blockEvents);
  const { time } = blockTimeOf(block);
  const eventCount = (await storeTxs(block, time)) + blockEvents.length;
  put(
    Block,
    Block.create({
      id: String(height),
      height,
      hash: block.block.id,
      time,
      proposer: hex(block.header.proposerAddress),
      txCount: block.transactions.length,
      eventCount,
      events: eventsJson(blockEvents.map((e) => e.event)),
    }),
  );
  await countBlock(block, time, eventCount);
  await flushDirty();
}
