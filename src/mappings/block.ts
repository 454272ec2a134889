/**
 * The one block handler: the whole block in chain order.
 *
 *   1. BeginBlock events (typed ones applied, as the chain applies them before the txs);
 *   2. each tx: its Tx row, its messages' handlers (failed txs included), then its
 *      typed events in order (a failed tx's events changed nothing on chain: stored, not applied);
 *   3. EndBlock events (expiry sweeps);
 *   4. the Block row and the chain totals;
 *   5. the block's proof of indexing over everything it writes (entities/proof);
 *   6. every entity the block touched, written once (infra/block-cache).
 *
 * The node's data is read into the sandbox once, at the start (infra/host), and
 * dispatched through the modules' tables (handlers/index). An event type no table
 * names is stored raw and changes nothing; one that does not decode as its
 * typed event likewise.
 */
import type { CosmosBlock } from '@subql/types-cosmos';
import { decodeTypedEvent } from '../lib/typed-event';
import { recordActivity, recordParties } from './domain/activity';
import { recordBlock, recordTx } from './entities/chain';
import { recordBlockProof } from './entities/proof';
import { HANDLERS } from './handlers';
import { enterBlock, flushDirty } from './infra/block-cache';
import { eventContext, EventPosition, MsgCtx } from './infra/context';
import type { BlockData, MsgData, RawEvent, TxData } from './infra/host';
import { readBlock } from './infra/host';
import { decodeWire, isContractMessage, msgToProtoJson } from './infra/protojson';

/** proto-JSON of a message; its raw bytes when its type is unknown or it does not decode. */
function messageJson(msg: MsgData): Record<string, unknown> {
  try {
    const decoded = isContractMessage(msg.typeUrl) ? decodeWire(msg.typeUrl, msg.value) : msg.nodeDecoded();
    return msgToProtoJson(msg.typeUrl, decoded, msg.value);
  } catch {
    return msgToProtoJson(msg.typeUrl, undefined, msg.value);
  }
}

async function applyEvent(block: BlockData, event: RawEvent, at: EventPosition): Promise<void> {
  const handler = HANDLERS.events[event.type];
  if (!handler) return;
  const decoded = decodeTypedEvent(event.type, event.attributes);
  if (!decoded) return;
  const ctx = eventContext(block, event.type, decoded, at);
  await handler(ctx);
  await recordActivity(ctx);
}

async function applyBlockEvents(block: BlockData, phase: 'begin' | 'end'): Promise<void> {
  for (const e of block.blockEvents) {
    if (e.phase !== phase) continue;
    await applyEvent(block, e.event, { tx: null, eventIndex: e.index, mode: e.mode });
  }
}

async function applyTx(block: BlockData, tx: TxData): Promise<void> {
  const msgs = tx.msgs.map(messageJson);
  await recordTx(block, tx, msgs);
  await recordParties(block.height, tx.events); // failed txs too: their fee and signer stay on chain
  for (const msg of tx.msgs) {
    const handler = HANDLERS.messages[msg.typeUrl];
    if (!handler) continue;
    const ctx: MsgCtx = {
      height: block.height,
      blockTime: block.time,
      blockTimeNs: block.timeNs,
      tx,
      msgIndex: msg.index,
      typeUrl: msg.typeUrl,
      json: msgs[msg.index],
      value: msg.value,
    };
    await handler(ctx);
  }
  if (tx.code !== 0) return;
  for (let i = 0; i < tx.events.length; i++) {
    await applyEvent(block, tx.events[i], { tx, eventIndex: i, mode: undefined });
  }
}

export async function handleBlock(cosmosBlock: CosmosBlock): Promise<void> {
  const block = readBlock(cosmosBlock);
  enterBlock(block.height);
  await applyBlockEvents(block, 'begin');
  for (const tx of block.txs) await applyTx(block, tx);
  await applyBlockEvents(block, 'end');
  await recordParties(
    block.height,
    block.blockEvents.map((e) => e.event),
  );
  await recordBlock(block);
  await recordBlockProof(block);
  await flushDirty();
}
