/** /v1/accounts/{addr}, its attestations and its activity feed. */
import type { Sql } from '../db/sql';
import { parseAddressParam, parseLimit, queryValue } from '../http/params';
import { CURSORS, keysetPage, readCursor, writeCursor } from '../paging/cursors';
import { seqOf } from '../paging/seq';
import {
  presentAccountLocks,
  presentAssets,
  presentAttestation,
  presentClaimable,
  presentDelegation,
  presentSettlement,
  presentVotingPower,
} from '../presenters/account';
import { presentActivity } from '../presenters/activity';
import { accountFeed } from '../repositories/activityRepository';
import { apiTime, latestBlockStoreTime } from './block-time';
import type { RouteContext } from './context';

export function registerAccountRoutes(ctx: RouteContext): void {
  const { accounts, activity, chain } = ctx.repos;

  const latestBlockTime = (sql: Sql) => latestBlockStoreTime(chain, sql);

  ctx.get('/v1/accounts/:addr', async (req) => {
    const address = parseAddressParam(String(req.params.addr), ctx.hrp);
    const account = address.bech32;
    return ctx.store.read(async (sql) => {
      const [latest, positions, settlements, attestations, claimables, delegations, delegated] = await Promise.all([
        latestBlockTime(sql),
        accounts.positions(sql, account),
        accounts.pendingSettlements(sql, account),
        accounts.attestations(sql, account),
        accounts.claimables(sql, account),
        accounts.delegations(sql, account),
        accounts.delegatedVotes(sql, account),
      ]);
      const latestMs = Date.parse(apiTime(latest));
      return {
        address: account,
        evm_address: address.evm,
        assets: presentAssets(positions),
        locks: presentAccountLocks(positions),
        pending_settlements: settlements.map(presentSettlement),
        attestations: attestations.map((a) => presentAttestation(a, latestMs)),
        claimable: presentClaimable(claimables),
        delegations: delegations.map(presentDelegation),
        voting_power: presentVotingPower(positions, delegated),
        latest_block_time: apiTime(latest),
      };
    });
  }, { fixedPerHeight: true });

  ctx.get('/v1/accounts/:addr/attestations', async (req) => {
    const account = parseAddressParam(String(req.params.addr), ctx.hrp).bech32;
    return ctx.store.read(async (sql) => {
      const [latest, rows] = await Promise.all([latestBlockTime(sql), accounts.attestations(sql, account)]);
      const latestMs = Date.parse(apiTime(latest));
      return { address: account, attestations: rows.map((a) => presentAttestation(a, latestMs)), latest_block_time: apiTime(latest) };
    });
  }, { fixedPerHeight: true });

  ctx.get('/v1/accounts/:addr/events', async (req) => {
    const account = parseAddressParam(String(req.params.addr), ctx.hrp).bech32;
    const limit = parseLimit(queryValue(req.query, 'limit'));
    const cursor = readCursor(CURSORS.accountEvents, queryValue(req.query, 'cursor'));
    const rows = await ctx.store.readOne((sql) => activity.page(sql, accountFeed(account), cursor ? seqOf(...cursor) : null, limit + 1));
    const page = keysetPage(rows, limit, (last) => writeCursor(CURSORS.accountEvents, [last.height, last.tx_index, last.event_index]));
    return { address: account, events: page.items.map(presentActivity), next_cursor: page.nextCursor };
  }, { fixedPerHeight: true });
}
