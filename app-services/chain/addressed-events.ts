/**
 * The typed events addressed to one key that the watched blocks carry (chain-watcher.ts): a
 * pledge naming the lender as beneficiary, a settlement proposed to the desk or the lender.
 * Each is kept, with its tx and block, until the index holds its block too; a worker reads
 * them beside its indexed rows, so it acts one block after the event instead of after the
 * indexer. Events of failed txs are never taken (they changed nothing).
 */
import { decodeTypedEvent } from '../../src/lib/typed-event';
import type { CommittedBlock } from './chain-client';
import type { ChainWatcher } from './chain-watcher';

/** Which events are this key's: the event type and the field that must name the key. */
export interface AddressedTo {
  type: string;
  field: string;
}

export interface SeenEvent {
  type: string;
  /** the typed event's proto-JSON fields */
  fields: Record<string, unknown>;
  txHash: string;
  height: number;
  /** the block's time, unix ms */
  timeMs: number;
}

export class AddressedEvents {
  private seen: SeenEvent[] = [];

  constructor(
    watcher: ChainWatcher,
    private readonly address: string,
    private readonly kinds: readonly AddressedTo[],
    /** told when a block brought something: the worker's wake() */
    private readonly onArrival: () => void,
  ) {
    watcher.subscribe((block) => this.take(block));
  }

  /** The events of `type` in blocks above `indexedHeight`; those at or below it are forgotten (the index has them). */
  above(indexedHeight: number, type: string): SeenEvent[] {
    this.seen = this.seen.filter((e) => e.height > indexedHeight);
    return this.seen.filter((e) => e.type === type);
  }

  private take(block: CommittedBlock): void {
    let arrived = false;
    for (const tx of block.txs) {
      if (tx.code !== 0) continue;
      for (const event of tx.events) {
        const kind = this.kinds.find((k) => k.type === event.type);
        if (!kind) continue;
        const fields = decodeTypedEvent(event.type, event.attributes);
        if (fields?.[kind.field] !== this.address) continue;
        this.seen.push({ type: event.type, fields, txHash: tx.hash, height: block.height, timeMs: block.timeMs });
        arrived = true;
      }
    }
    if (arrived) this.onArrival();
  }
}
