/**
 * Reads a generated chain the way an indexer does: the `block` and
 * `block_results` JSON the RPC serves (pre-rendered by the chain), txs
 * decoded from the block's raw bytes. Tests assert on this, never on the
 * generator's own bookkeeping.
 */
import { TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { DevnetChain } from '../../../devnet/chain';

export interface SeenEvent {
  height: number;
  /** -1 for block-level events */
  txIndex: number;
  type: string;
  attrs: Record<string, string>;
  /** mode attribute of block-level events */
  mode?: string;
}

export interface SeenTx {
  height: number;
  index: number;
  code: number;
  codespace: string;
  log: string;
  typeUrls: string[];
}

export interface ChainReading {
  txs: SeenTx[];
  /** events of successful txs and block-level events */
  events: SeenEvent[];
}

type Attr = { key: string; value: string };
type RenderedEvent = { type: string; attributes?: Attr[] };

function attrs(e: RenderedEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of e.attributes ?? []) out[a.key] = a.value;
  return out;
}

export function readChain(chain: DevnetChain): ChainReading {
  const txs: SeenTx[] = [];
  const events: SeenEvent[] = [];
  for (let height = 1; height <= chain.height; height++) {
    const stored = chain.block(height)!;
    const block = JSON.parse(stored.blockJson) as { block: { data: { txs: string[] | null } } };
    const results = JSON.parse(stored.resultsJson) as {
      txs_results: { code: number; codespace: string; log: string; events: RenderedEvent[] }[] | null;
      finalize_block_events: RenderedEvent[] | null;
    };
    const raw = block.block.data.txs ?? [];
    (results.txs_results ?? []).forEach((r, index) => {
      const body = TxBody.decode(TxRaw.decode(Buffer.from(raw[index], 'base64')).bodyBytes);
      txs.push({
        height,
        index,
        code: r.code,
        codespace: r.codespace,
        log: r.log,
        typeUrls: body.messages.map((m) => m.typeUrl),
      });
      if (r.code === 0)
        for (const e of r.events) events.push({ height, txIndex: index, type: e.type, attrs: attrs(e) });
    });
    for (const e of results.finalize_block_events ?? []) {
      const a = attrs(e);
      events.push({ height, txIndex: -1, type: e.type, attrs: a, mode: a.mode });
    }
  }
  return { txs, events };
}

/** A typed event attribute (JSON-encoded by the SDK convention) decoded. */
export function typedValue(e: SeenEvent, key: string): unknown {
  const raw = e.attrs[key];
  return raw === undefined ? undefined : JSON.parse(raw);
}

/** ABI-decoded Error(string) of revert data. */
export function revertReason(returnData: string): string | null {
  if (!returnData.startsWith('0x08c379a0')) return null;
  const body = Buffer.from(returnData.slice(10), 'hex');
  const length = Number(BigInt('0x' + body.subarray(32, 64).toString('hex')));
  return body.subarray(64, 64 + length).toString('utf8');
}
