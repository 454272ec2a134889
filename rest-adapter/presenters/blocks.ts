/** Block objects (openapi `Block`). */
import type { ApiSchema } from './contract';
import type { BlockRow } from '../repositories/blocks';
import { formatTimestamp } from './values';

export function presentBlock(row: BlockRow): ApiSchema<'Block'> {
  return {
    height: row.height,
    hash: row.hash.toUpperCase(),
    time: formatTimestamp(row.time),
    proposer: row.proposer.toUpperCase(),
    tx_count: row.tx_count,
    event_count: row.event_count,
  };
}
