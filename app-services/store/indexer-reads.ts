/** Reads of the indexer's store that more than one service makes (read-only; tables from src/store/tables.ts). */
import type { Pool } from 'pg';
import { METADATA_KEY, metadataInt, readMetadataValue, type Tables } from '../../src/store';
import type { SeenEvent } from '../chain/addressed-events';
import type { IndexedAsset } from '../market/eligibility';
import type { AssetKind } from '../market/units';

/** A pending settlement as indexed: its legs are proto-JSON Leg objects (the proposer's directions). */
export interface ProposalSeen {
  id: string;
  proposer: string;
  /** the tx that proposed it (absent where a reader does not need it) */
  txHash?: string;
  legs: {
    direction?: string;
    coin?: { denom?: string; amount?: string };
    right?: { asset_id?: string; kind_id?: number; units?: string };
  }[];
}

/** Pending settlements proposed to `counterparty`, oldest first. */
export async function pendingProposalsTo(pool: Pool, svc: Tables, counterparty: string): Promise<ProposalSeen[]> {
  const { rows } = await pool.query<ProposalSeen>(
    `SELECT id, proposer, created_tx_hash AS "txHash", legs FROM ${svc.settlements} WHERE counterparty = $1 AND status = 'STATUS_PENDING' ORDER BY number`,
    [counterparty],
  );
  return rows;
}

export const SETTLEMENT_PROPOSED = 'svc.settlement.v1.EventSettlementProposed';

/**
 * Proposals the index holds, then those seen on the chain in blocks it has not indexed yet
 * (EventSettlementProposed), each once. Whether one is still pending is for the chain's own
 * copy to say, as before acting on any.
 */
export function withSeenProposals(indexed: ProposalSeen[], seen: readonly SeenEvent[]): ProposalSeen[] {
  const ids = new Set(indexed.map((p) => p.id));
  const fresh = seen
    .map((e) => ({
      id: String(e.fields.settlement_id ?? ''),
      proposer: String(e.fields.proposer ?? ''),
      txHash: e.txHash,
      legs: (Array.isArray(e.fields.legs) ? e.fields.legs : []) as ProposalSeen['legs'],
    }))
    .filter((p) => p.id !== '' && !ids.has(p.id));
  return [...indexed, ...fresh];
}

/** The node's latest indexed height (0 before the first block). */
export async function indexedHeight(pool: Pool, svc: Tables): Promise<number> {
  return metadataInt(await readMetadataValue(pool, svc.metadata, METADATA_KEY.indexedHeight));
}

/** The indexed facts the market's eligibility rules read (app-services/market/eligibility.ts). */
export class IndexedMarketReads {
  constructor(
    private readonly pool: Pool,
    private readonly svc: Tables,
  ) {}

  /** The pool's creation height as indexed; null while the index has not seen it (a lag makes a pool look younger). */
  async poolCreatedHeight(poolId: number): Promise<number | null> {
    const { rows } = await this.pool.query<{ created_height: number }>(
      `SELECT created_height FROM ${this.svc.dexPools} WHERE id = $1`,
      [String(poolId)],
    );
    return rows.length ? Number(rows[0].created_height) : null;
  }

  /** The asset's issuer, releaser ('' when none) and kinds as indexed; null while the index has not seen it. */
  async asset(assetId: string): Promise<IndexedAsset | null> {
    const { rows } = await this.pool.query<{ issuer: string; releaser: string | null; kinds: AssetKind[] | null }>(
      `SELECT a.issuer, a.roles ->> 'releaser' AS releaser,
              (SELECT json_agg(json_build_object('kind_id', k.kind_id, 'class', k.kind_class, 'decimals', k.decimals, 'bundle', k.bundle) ORDER BY k.kind_id)
                 FROM ${this.svc.kinds} k WHERE k.asset_id = a.id) AS kinds
         FROM ${this.svc.assets} a WHERE a.id = $1`,
      [assetId],
    );
    if (!rows.length) return null;
    return { issuer: rows[0].issuer, releaser: rows[0].releaser ?? '', kinds: rows[0].kinds ?? [] };
  }
}
