/**
 * Chain records: the Block and Tx rows (every tx, failed ones included; raw
 * events as JSON text in chain order) and the chain counters they drive (tx
 * count, per-method and per-day counts, block and event totals).
 */
import { Block, MethodCount, Tx, TxDay } from '../../types';
import { load, markDirty, put } from '../infra/block-cache';
import type { BlockData, TxData } from '../infra/host';
import { seqOf } from '../infra/values';
import { chainTotals } from './totals';

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

/** Stores one tx with its messages' proto-JSON (`@type` first) and counts it per method and day. */
export async function recordTx(block: BlockData, tx: TxData, msgs: Record<string, unknown>[]): Promise<void> {
  const failed = tx.code !== 0;
  const row = put(
    Tx,
    Tx.create({
      id: tx.hash,
      hash: tx.hash,
      height: block.height,
      txIndex: tx.index,
      seq: seqOf(block.height, tx.index, -1),
      code: tx.code,
      codespace: tx.codespace,
      rawLog: failed ? tx.log : undefined,
      gasWanted: tx.gasWanted,
      gasUsed: tx.gasUsed,
      msgs: JSON.stringify(msgs),
      fee: tx.feeJson,
      memo: tx.memo,
      blockTime: block.time,
      method: String((msgs[0]?.['@type'] as string | undefined) ?? ''),
      msgCount: msgs.length,
      eventCount: tx.events.length,
      events: tx.eventsJson,
    }),
  );
  await countTx(row.method, utcDay(block.time));
}

/** Stores the block row (block-level events as JSON text) and moves the chain totals. */
export async function recordBlock(block: BlockData): Promise<void> {
  const eventCount = block.txs.reduce((n, tx) => n + tx.events.length, 0) + block.blockEvents.length;
  put(
    Block,
    Block.create({
      id: String(block.height),
      height: block.height,
      hash: block.hash,
      time: block.time,
      proposer: block.proposer,
      txCount: block.txs.length,
      eventCount,
      events: JSON.stringify(block.blockEvents.map((e) => e.event)),
    }),
  );
  const totals = await chainTotals(block.height, block.time);
  totals.blockCount += 1;
  totals.txCount += block.txs.length;
  totals.eventCount += BigInt(eventCount);
  totals.latestHeight = block.height;
  totals.latestBlockTime = block.time;
  markDirty(totals);
}
