/**
 * Blocks shaped as @subql/node-cosmos 5.4 hands them to a block handler (CosmosBlock with
 * transactions, their results and decoded bodies, and events: block-level ones before and
 * after the tx ones), built from typed events in proto-JSON. Enough for the mappings' reader
 * (src/mappings/infra/host.ts); the end-to-end tests run the real node.
 */
import type { CosmosBlock } from '@subql/types-cosmos';
import { encodeTypedEvent } from '../../../../src/lib/typed-event';

export interface RawEvent {
  type: string;
  attributes: { key: string; value: string }[];
}

/** A typed event with its proto-JSON fields as attributes. */
export function typed(type: string, fields: object): RawEvent {
  return { type, attributes: encodeTypedEvent(type, fields as Record<string, unknown>) };
}

/** A finalize_block event of the given phase (Comet 0.38 marks it with a `mode` attribute). */
export function blockLevel(event: RawEvent, mode: 'BeginBlock' | 'EndBlock'): RawEvent {
  return { type: event.type, attributes: [...event.attributes, { key: 'mode', value: mode }] };
}

export interface TxSpec {
  events: RawEvent[];
  code?: number;
  codespace?: string;
  log?: string;
  msgs?: { typeUrl: string; value: Uint8Array }[];
}

export interface BlockSpec {
  height: number;
  /** unix ms; default height seconds after 2026-01-01 */
  timeMs?: number;
  begin?: RawEvent[];
  txs?: TxSpec[];
  end?: RawEvent[];
}

const T0 = Date.UTC(2026, 0, 1);

export function fakeBlock(spec: BlockSpec): CosmosBlock {
  const time = new Date(spec.timeMs ?? T0 + spec.height * 1000);
  const header = { height: spec.height, time, proposerAddress: Uint8Array.of(1, 2, 3) };
  // the node's block, with only what the mappings' reader uses
  const block = { block: { id: `B${spec.height}`, header }, header } as unknown as Record<string, unknown>;
  const transactions = (spec.txs ?? []).map((tx, idx) => ({
    idx,
    hash: `TX${spec.height}_${idx}`,
    block,
    tx: {
      code: tx.code ?? 0,
      codespace: tx.codespace ?? '',
      log: tx.log ?? '',
      gasWanted: 200_000n,
      gasUsed: 100_000n,
      events: tx.events,
      data: new Uint8Array(0),
    },
    decodedTx: {
      body: { messages: tx.msgs ?? [{ typeUrl: '/cosmos.bank.v1beta1.MsgSend', value: new Uint8Array(0) }], memo: '' },
      authInfo: { fee: { amount: [{ denom: 'usvc', amount: '5000' }] } },
    },
  }));
  const asEvents = (list: RawEvent[], kind: string) => list.map((event) => ({ event, kind, block }));
  block.transactions = transactions;
  block.txs = transactions.map((t) => t.tx);
  block.messages = [];
  block.events = [
    ...asEvents(spec.begin ?? [], 'finalize_block'),
    ...transactions.flatMap((t) => t.tx.events.map((event) => ({ event, kind: 'transaction', block, tx: t }))),
    ...asEvents(spec.end ?? [], 'finalize_block'),
  ];
  return block as unknown as CosmosBlock;
}
