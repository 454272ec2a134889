/**
 * Reading the node's block into the sandbox.
 *
 * Data the node hands to the block handler lives in the host realm: every
 * property read from the sandbox goes through a vm2 proxy (measured: reading a
 * block's events attribute by attribute costs ~20× what one JSON crossing does).
 * `util.format('%j', x)` runs JSON.stringify on the host side (vm2 unwraps
 * arguments of host functions), so JSON-safe data (events, coins) crosses once,
 * as a string; bytes cross as one binary string made by the host's Buffer. What is
 * read here is everything the mappings use, in a few crossings per tx:
 * `readBlock` returns plain sandbox data, and nothing after it touches a proxy
 * (but `TxData.resultData()` and `MsgData.nodeDecoded()`, read only when needed).
 *
 * The node builds `block.transactions` (txs decoded) and `block.events` lazily;
 * the block-level events are only reachable through `block.events`, whose
 * block-level entries sit before (BeginBlock of Comet < 0.38) and after (EndBlock,
 * finalize_block) the tx events, so only those ends are read through proxies.
 */
import { format } from 'util';
import type { CosmosBlock, CosmosEvent } from '@subql/types-cosmos';

export interface EventAttribute {
  key: string;
  value: string;
}

/** A Comet event as stored and decoded: `{type, attributes: [{key, value}]}`. */
export interface RawEvent {
  type: string;
  attributes: EventAttribute[];
}

export interface MsgData {
  /** position in the tx body */
  index: number;
  typeUrl: string;
  /** the message's protobuf bytes */
  value: Uint8Array;
  /** the node's own decoding (its registry): for message types the contract does not describe */
  nodeDecoded(): unknown;
}

export interface TxData {
  hash: string;
  /** position in the block */
  index: number;
  code: number;
  codespace: string;
  log: string;
  gasWanted: bigint;
  gasUsed: bigint;
  memo: string;
  /** fee coins as JSON text: [{denom, amount}] */
  feeJson: string;
  msgs: MsgData[];
  /** the DeliverTx events in chain order, and the same as JSON text (what Tx.events stores) */
  events: RawEvent[];
  eventsJson: string;
  /** the DeliverTx result data (TxMsgData bytes), crossed only when asked for */
  resultData(): Uint8Array;
}

export interface BlockData {
  height: number;
  /** block hash, upper-case hex */
  hash: string;
  time: Date;
  /** block time in unix nanoseconds */
  timeNs: bigint;
  /** proposer address, upper-case hex */
  proposer: string;
  txs: TxData[];
  /** block-level events in the order the node lists them (what Block.events stores) */
  blockEvents: BlockEvent[];
}

export interface BlockEvent {
  event: RawEvent;
  /** position among the block-level events */
  index: number;
  /** applied before the block's txs (BeginBlock) or after them (EndBlock) */
  phase: 'begin' | 'end';
  /** the `mode` attribute of Comet 0.38 finalize_block events */
  mode: string | undefined;
}

/** JSON text of plain JSON host data, serialised on the host side. */
function jsonFromHost(value: unknown): string {
  return format('%j', value);
}

/**
 * Host bytes as a sandbox Uint8Array: the host's Buffer makes a binary string (a primitive, one
 * crossing), read here char by char. A Buffer made in the sandbox would be a host object again.
 */
function bytesFromHost(bytes: Uint8Array | undefined | null): Uint8Array {
  if (!bytes) return new Uint8Array(0);
  const binary = Buffer.from(bytes).toString('latin1');
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function hexFromHost(bytes: Uint8Array | undefined | null): string {
  return bytes ? Buffer.from(bytes).toString('hex').toUpperCase() : '';
}

function readMsgs(
  block: CosmosBlock,
  txIndex: number,
  hostMsgs: readonly { typeUrl: string; value: Uint8Array }[],
): MsgData[] {
  const msgs: MsgData[] = [];
  for (let i = 0; i < hostMsgs.length; i++) {
    const m = hostMsgs[i];
    msgs.push({
      index: i,
      typeUrl: String(m.typeUrl),
      value: bytesFromHost(m.value),
      nodeDecoded: () => {
        const wrapped = block.messages.find((x) => x.tx.idx === txIndex && x.idx === i);
        return wrapped?.msg.decodedMsg;
      },
    });
  }
  return msgs;
}

function readTx(block: CosmosBlock, index: number): TxData {
  const tx = block.transactions[index];
  const result = tx.tx;
  const body = tx.decodedTx.body;
  const eventsJson = result.events.length ? jsonFromHost(result.events) : '[]';
  return {
    hash: String(tx.hash),
    index,
    code: Number(result.code),
    codespace: String(result.codespace ?? ''),
    log: String(result.log ?? ''),
    gasWanted: BigInt(String(result.gasWanted ?? 0)),
    gasUsed: BigInt(String(result.gasUsed ?? 0)),
    memo: String(body.memo ?? ''),
    feeJson: jsonFromHost(tx.decodedTx.authInfo.fee?.amount ?? []),
    msgs: readMsgs(block, index, body.messages),
    events: JSON.parse(eventsJson) as RawEvent[],
    eventsJson,
    resultData: () => bytesFromHost(result.data),
  };
}

function modeOf(event: RawEvent): string | undefined {
  return event.attributes.find((a) => a.key === 'mode')?.value;
}

/**
 * Block-level events: at the start of `events` (begin_block of Comet < 0.38) and at its end
 * (end_block, finalize_block). A 0.38 finalize_block event says its phase in its `mode`
 * attribute, an older one in the kind the node gives it.
 */
function blockLevelEvents(events: readonly CosmosEvent[]): BlockEvent[] {
  let first = 0;
  while (first < events.length && !events[first].tx) first++;
  let last = events.length;
  while (last > first && !events[last - 1].tx) last--;
  const list = [...events.slice(0, first), ...events.slice(last)];
  if (list.length === 0) return [];
  const { raw, kinds } = JSON.parse(
    jsonFromHost({ raw: list.map((e) => e.event), kinds: list.map((e) => e.kind) }),
  ) as {
    raw: RawEvent[];
    kinds: string[];
  };
  return raw.map((event, index) => {
    const mode = modeOf(event);
    const begin = mode === undefined ? kinds[index] === 'begin_block' : mode === 'BeginBlock';
    return { event, index, phase: begin ? 'begin' : 'end', mode };
  });
}

/** Block time with nanoseconds (cosmjs DateWithNanoseconds). */
function timeOf(block: CosmosBlock): { time: Date; ns: bigint } {
  const t = block.header.time as Date & { nanoseconds?: number };
  const ms = Number(t.getTime());
  return { time: new Date(ms), ns: BigInt(ms) * 1_000_000n + BigInt(Number(t.nanoseconds ?? 0)) };
}

export function readBlock(block: CosmosBlock): BlockData {
  const { time, ns } = timeOf(block);
  const txCount = Number(block.txs.length);
  const txs: TxData[] = [];
  for (let i = 0; i < txCount; i++) txs.push(readTx(block, i));
  return {
    height: Number(block.header.height),
    hash: String(block.block.id),
    time,
    timeNs: ns,
    proposer: hexFromHost(block.header.proposerAddress),
    txs,
    blockEvents: blockLevelEvents(block.events),
  };
}
