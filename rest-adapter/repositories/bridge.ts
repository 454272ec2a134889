/** SQL for bridge routes (with their latest I8 reconciliation) and transfers. */
import { statement } from '../db/statement';
import { SqlParams } from '../db/params';
import type { Tables } from '../../src/store';
import { latestBlockTimeSql } from './status';

export interface RouteRow {
  id: string;
  remote_domain: number;
  remote_contract: string;
  direction: string;
  local_denom: string;
  status: string;
  window_seconds: string;
  outbound_limit: string;
  inbound_limit: string;
  warp_token_id: string;
  display: string;
  exponent: number;
  outbound: string;
  inbound: string;
  outbound_used: string;
  inbound_used: string;
  window_start: string;
  transfers: number;
  asset_id: string;
  kind_id: number;
  bundle: boolean;
  escrow_address: string;
  income_swept: unknown;
  created_height: number;
  updated_height: number;
  /** latest I8Check, joined (null before the first) */
  i8_height: number | null;
  i8_chain_actual: string | null;
  i8_indexer_actual: string | null;
  i8_chain_ok: boolean | null;
  i8_evaluated: boolean | null;
  i8_agree: boolean | null;
  /** the latest indexed block's time (ChainTotals): the clock of the route windows; null before any block */
  chain_latest_block_time: string | null;
}

export interface TransferRow {
  seq: string;
  height: number;
  tx_index: number;
  event_index: number;
  tx_hash: string;
  route_id: string;
  direction: string;
  status: string;
  sender: string;
  recipient: string;
  amount: string;
  message_id: string;
  reason: string;
  block_time_ns: string;
  asset_id: string;
  kind_id: number;
  bundle: boolean;
}

export interface TransferFilter {
  route?: string;
  status?: string;
  /** spellings of one party (http/params.ts parseTransferAccount): a transfer matches any of them as sender or recipient */
  account?: string[];
  messageId?: string;
}

export function createBridgeRepository(t: Tables) {
  const routeSelect = `
    SELECT r.id, r.remote_domain, r.remote_contract, r.direction, r.local_denom, r.status, r.window_seconds, r.outbound_limit, r.inbound_limit,
           r.warp_token_id, r.display, r.exponent, r.outbound, r.inbound, r.outbound_used, r.inbound_used, r.window_start, r.transfers,
           r.asset_id, r.kind_id, r.bundle, r.escrow_address, r.income_swept, r.created_height, r.updated_height,
           i.height AS i8_height, i.chain_actual AS i8_chain_actual, i.indexer_actual AS i8_indexer_actual,
           i.chain_ok AS i8_chain_ok, i.evaluated AS i8_evaluated, i.agree AS i8_agree,
           ${latestBlockTimeSql(t)} AS chain_latest_block_time
    FROM ${t.bridgeRoutes} r
    LEFT JOIN LATERAL (
      SELECT height, chain_actual, indexer_actual, chain_ok, evaluated, agree FROM ${t.i8Checks}
      WHERE route_id = r.id ORDER BY height DESC LIMIT 1
    ) i ON TRUE`;

  const routes = statement('values', async (sql): Promise<RouteRow[]> => {
    return sql.rows<RouteRow>(`${routeSelect} ORDER BY r.id`);
  });

  const route = statement('once', async (sql, id: string): Promise<RouteRow | undefined> => {
    return sql.one<RouteRow>(`${routeSelect} WHERE r.id = $1`, [id]);
  });

  const transferColumns = `seq, height, tx_index, event_index, tx_hash, route_id, direction, status, sender, recipient, amount, message_id, reason,
              block_time_ns, asset_id, kind_id, bundle`;

  /**
   * Up to n transfers matching every given filter, below `belowSeq`, newest first. Each
   * branch orders by its composite index (<column>, seq) so the planner walks it; an
   * account is the union of a sender and a recipient branch per spelling of the party.
   */
  const transfers = statement(
    // all transfers walk the seq index whatever the cursor. A filtered list's order is given by
    // the seq index too: EXPLAIN (GENERIC_PLAN) of a route's list walked it (its heap in seq
    // order looks cheap), which for a rare route reads every transfer: the filter chooses the index
    (filter: TransferFilter) => (Object.values(filter).some((v) => v !== undefined) ? 'values' : 'page'),
    async (sql, filter: TransferFilter, belowSeq: bigint | null, n: number): Promise<TransferRow[]> => {
      const p = new SqlParams();
      const conditions: string[] = [];
      if (filter.route !== undefined) conditions.push(`route_id = ${p.add(filter.route)}`);
      if (filter.messageId !== undefined) conditions.push(`message_id = ${p.add(filter.messageId)}`);
      if (filter.status !== undefined) conditions.push(`status = ${p.add(filter.status)}`);
      if (belowSeq !== null) conditions.push(`seq < ${p.add(belowSeq.toString())}`);
      const limit = sql.limit(p, n);
      const select = (extra: string[], lead: string | null) => {
        const all = [...extra, ...conditions];
        const where = all.length ? `WHERE ${all.join(' AND ')}` : '';
        return `SELECT ${transferColumns} FROM ${t.bridgeTransfers} ${where} ORDER BY ${lead ? `${lead} DESC, seq DESC` : 'seq DESC'} LIMIT ${limit}`;
      };
      if (filter.account !== undefined) {
        const union = filter.account
          .map((value) => {
            const account = p.add(value);
            return `(${select([`sender = ${account}`], 'sender')}) UNION (${select([`recipient = ${account}`], 'recipient')})`;
          })
          .join(' UNION ');
        return sql.rows<TransferRow>(`SELECT * FROM (${union}) t ORDER BY seq DESC LIMIT ${limit}`, p.values);
      }
      const lead = filter.route !== undefined ? 'route_id' : filter.messageId !== undefined ? 'message_id' : null;
      return sql.rows<TransferRow>(select([], lead), p.values);
    },
  );

  return { routes, route, transfers };
}

export type BridgeRepository = ReturnType<typeof createBridgeRepository>;
