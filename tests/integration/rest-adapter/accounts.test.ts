/**
 * Accounts, attesters, settlements, encumbrances, delegations, bridge and invariants on
 * the node-built store, compared with the chain (contract queries) and the scenario summary.
 */
import { decodeBech32Address, toBech32, toChecksumAddress } from '../../../src/lib/address';
import { Api, startApi, walkPages } from './api';
import { chainQuery } from './chain';

jest.setTimeout(300_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are asserted field by field */

const countBy = <T>(items: T[], key: (t: T) => string) =>
  items.reduce<Record<string, number>>((acc, t) => {
    acc[key(t)] = (acc[key(t)] ?? 0) + 1;
    return acc;
  }, {});

/** Ids 1..n the chain knows, for lists the API has no endpoint for (encumbrances, delegations). */
async function chainIds(probe: (id: number) => Promise<boolean>): Promise<number[]> {
  const ids: number[] = [];
  for (let id = 1; await probe(id); id++) ids.push(id);
  return ids;
}

describe('accounts and the other resources on the node-built store', () => {
  let api: Api;
  let accounts: string[];

  beforeAll(async () => {
    api = await startApi();
    accounts = Object.values(api.store.summary.accounts);
  });
  afterAll(() => api?.close());

  describe('/v1/accounts/{addr}', () => {
    it('answers the same account for its bech32 and 0x spellings, in canonical bech32', async () => {
      for (const address of accounts.slice(0, 8)) {
        const body = await api.ok(`/v1/accounts/${address}`);
        const evm = toChecksumAddress(decodeBech32Address(address).bytes);
        expect(body).toMatchObject({ address, evm_address: evm });
        expect(await api.ok(`/v1/accounts/${evm}`)).toEqual(body);
        expect(await api.ok(`/v1/accounts/${evm.toLowerCase()}`)).toEqual(body);
        expect(await api.ok(`/v1/accounts/${address.toUpperCase()}`)).toEqual(body);
      }
    });

    it('positions, locks and claimable income are the chain state', async () => {
      let claimables = 0;
      for (const address of accounts) {
        const body = await api.ok(`/v1/accounts/${address}`);
        for (const { asset_id, positions } of body.assets) {
          for (const p of positions) {
            const chain = await chainQuery(api.store.devnetUrl, '/svc.rights.v1.Query/Position', {
              asset_id,
              kind_id: p.kind_id,
              holder: address,
            });
            expect({ units: p.units, encumbered: p.encumbered }).toEqual({
              units: chain.units,
              encumbered: chain.locked ?? '0',
            });
            expect(p.locks).toEqual([...(chain.locks ?? [])].sort((a: any, b: any) => (a.ref < b.ref ? -1 : 1)));
            expect(BigInt(p.encumbered)).toBe(p.locks.reduce((n: bigint, l: any) => n + BigInt(l.units), 0n));
          }
        }
        expect(body.locks).toEqual(
          body.assets.flatMap((a: any) =>
            a.positions.flatMap((p: any) =>
              p.locks.map((l: any) => ({ asset_id: a.asset_id, kind_id: p.kind_id, ...l })),
            ),
          ),
        );
        const { entries } = await chainQuery(api.store.devnetUrl, '/svc.payout.v1.Query/Claimable', { address });
        const chainEntries = (entries ?? []).map((e: any) => ({
          routed_from: e.routed_from ?? '',
          ref: e.ref ?? '',
          asset_id: e.asset_id,
          denom: e.denom,
          kind_id: e.kind_id ?? 0,
          total: e.amount,
        }));
        const mine = body.claimable.map((c: any) => ({
          routed_from: c.routed_from,
          ref: c.ref,
          asset_id: c.asset_id,
          denom: c.denom,
          kind_id: c.kind_id,
          total: c.total,
        }));
        const order = (a: any, b: any) =>
          `${a.asset_id}|${a.kind_id}|${a.denom}|${a.routed_from}|${a.ref}` <
          `${b.asset_id}|${b.kind_id}|${b.denom}|${b.routed_from}|${b.ref}`
            ? -1
            : 1;
        expect([...mine].sort(order)).toEqual([...chainEntries].sort(order));
        for (const c of body.claimable) expect(BigInt(c.total)).toBe(BigInt(c.pending) + BigInt(c.accrued));
        claimables += body.claimable.length;
      }
      expect(claimables).toBeGreaterThan(0);
    });

    it('pending settlements, delegations and voting power belong to the account', async () => {
      let votes = 0;
      for (const address of accounts) {
        const body = await api.ok(`/v1/accounts/${address}`);
        for (const s of body.pending_settlements) {
          expect(s.status).toBe('STATUS_PENDING');
          expect([s.proposer, s.counterparty]).toContain(address);
          expect(s).not.toHaveProperty('timeline');
        }
        for (const d of body.delegations) expect([d.holder, d.delegate]).toContain(address);
        expect(body.delegations.map((d: any) => d.id)).toEqual(
          [...body.delegations.map((d: any) => d.id)].sort((a, b) => b - a),
        );
        for (const vp of body.voting_power) {
          const own =
            body.assets
              .find((a: any) => a.asset_id === vp.asset_id)
              ?.positions.filter((p: any) => p.class === 'VOTE')
              .reduce((n: bigint, p: any) => n + BigInt(p.units), 0n) ?? 0n;
          expect(BigInt(vp.own)).toBe(own);
          expect(BigInt(vp.voting_power.total)).toBe(
            BigInt(vp.own) - BigInt(vp.delegated_out) + BigInt(vp.delegated_in),
          );
          const active = body.delegations.filter((d: any) => d.ended === '' && d.asset_id === vp.asset_id);
          expect(BigInt(vp.delegated_out)).toBe(
            active.filter((d: any) => d.holder === address).reduce((n: bigint, d: any) => n + BigInt(d.units), 0n),
          );
          expect(BigInt(vp.delegated_in)).toBe(
            active.filter((d: any) => d.delegate === address).reduce((n: bigint, d: any) => n + BigInt(d.units), 0n),
          );
          votes++;
        }
      }
      expect(votes).toBeGreaterThan(0);
    });

    it('attestations are live against the latest block time; attesters count their credentials per type', async () => {
      let attestations = 0;
      for (const address of accounts) {
        const [body, only] = await Promise.all([
          api.ok(`/v1/accounts/${address}`),
          api.ok(`/v1/accounts/${address}/attestations`),
        ]);
        expect(only).toEqual({ address, attestations: body.attestations, latest_block_time: body.latest_block_time });
        for (const a of body.attestations) {
          expect(a.live).toBe(!a.revoked && Date.parse(a.expiry) > Date.parse(body.latest_block_time));
          const chain = await chainQuery(api.store.devnetUrl, '/svc.attestation.v1.Query/Attestation', {
            attester: a.attester,
            subject: address,
            type: a.type,
          });
          expect(chain.found).toBe(true);
          expect({ revoked: a.revoked, expiry: Date.parse(a.expiry) }).toEqual({
            revoked: Boolean(chain.revoked),
            expiry: Date.parse(chain.expiry),
          });
          attestations++;
        }
      }
      expect(attestations).toBeGreaterThan(0);
      const attester = await api.ok(`/v1/attesters/${api.store.summary.accounts.attester}`);
      expect(attester.types.length).toBeGreaterThan(0);
      for (const t of attester.types) expect(t.total).toBe(t.active + t.revoked + t.expired);
      const given = (await Promise.all(accounts.map((a) => api.ok(`/v1/accounts/${a}/attestations`))))
        .flatMap((b: any) => b.attestations)
        .filter((a: any) => a.attester === attester.attester);
      expect(attester.types.reduce((n: number, t: any) => n + t.total, 0)).toBe(given.length);
    });

    it('answers 200 with empty collections for an address the chain never saw; module accounts have no evm_address', async () => {
      const stranger = toBech32(
        Uint8Array.from({ length: 20 }, (_, i) => 250 - i),
        'svc',
      );
      expect(await api.ok(`/v1/accounts/${stranger}`)).toMatchObject({
        address: stranger,
        assets: [],
        locks: [],
        pending_settlements: [],
        attestations: [],
        claimable: [],
        delegations: [],
        voting_power: [],
      });
      expect(await api.ok(`/v1/accounts/${stranger}/events`)).toEqual({
        address: stranger,
        events: [],
        next_cursor: null,
      });
      expect((await api.ok(`/v1/attesters/${stranger}`)).types).toEqual([]);
      const escrow = (await api.ok('/v1/bridge/routes')).routes.find(
        (r: any) => r.escrow_address !== '',
      )?.escrow_address;
      expect(escrow).toBeDefined();
      expect((await api.ok(`/v1/accounts/${escrow}`)).evm_address).toBeNull();
    });
  });

  describe('settlements', () => {
    it('statuses and cancel reasons match the chain; filters by status (both forms) and party', async () => {
      const all = (await walkPages<any>(api, '/v1/settlements?limit=100')).flatMap((p) => p.settlements);
      expect(countBy(all, (s) => s.status)).toEqual(api.store.summary.statuses.settlement);
      const reasons = countBy(
        all.filter((s) => s.status === 'STATUS_CANCELLED'),
        (s) => s.cancel_reason || '(party)',
      );
      expect(reasons).toEqual(api.store.summary.statuses.settlementCancelReasons);
      for (const [long, short] of [
        ['STATUS_SETTLED', 'settled'],
        ['STATUS_EXPIRED', 'expired'],
        ['STATUS_CANCELLED', 'cancelled'],
        ['STATUS_PENDING', 'pending'],
      ]) {
        const byLong = (await walkPages<any>(api, `/v1/settlements?limit=7&status=${long}`)).flatMap(
          (p) => p.settlements,
        );
        const byShort = (await walkPages<any>(api, `/v1/settlements?limit=100&status=${short}`)).flatMap(
          (p) => p.settlements,
        );
        expect(byShort).toEqual(byLong);
        expect(byLong).toEqual(all.filter((s) => s.status === long));
      }
      const party = api.store.summary.accounts.desk;
      const mine = (await walkPages<any>(api, `/v1/settlements?limit=5&party=${party}`)).flatMap((p) => p.settlements);
      expect(mine).toEqual(all.filter((s) => s.proposer === party || s.counterparty === party));
      expect(mine.length).toBeGreaterThan(0);
      const both = (
        await walkPages<any>(
          api,
          `/v1/settlements?limit=5&party=${toChecksumAddress(decodeBech32Address(party).bytes)}&status=settled`,
        )
      ).flatMap((p) => p.settlements);
      expect(both).toEqual(mine.filter((s) => s.status === 'STATUS_SETTLED'));
    });

    it('each settlement has its legs as the chain has them and a timeline from proposed to its end', async () => {
      const all = (await walkPages<any>(api, '/v1/settlements?limit=100')).flatMap((p) => p.settlements);
      for (const s of all) {
        const { settlement } = await api.ok(`/v1/settlements/${s.id}`);
        const { settlement: chain } = await chainQuery(api.store.devnetUrl, '/svc.settlement.v1.Query/Settlement', {
          settlement_id: String(s.id),
        });
        expect(settlement).toMatchObject({
          ...s,
          status: chain.status,
          cancel_reason: chain.cancel_reason ?? '',
          proposer: chain.proposer,
          counterparty: chain.counterparty,
        });
        expect(settlement.legs).toEqual(
          chain.legs.map((l: any) =>
            l.right
              ? { direction: l.direction, right: { ...l.right, kind_id: l.right.kind_id ?? 0 } }
              : { direction: l.direction, coin: l.coin },
          ),
        );
        const events = settlement.timeline.map((t: any) => t.event);
        expect(events[0]).toBe('proposed');
        expect(events).toEqual(
          settlement.status === 'STATUS_PENDING'
            ? ['proposed']
            : [
                'proposed',
                { STATUS_SETTLED: 'settled', STATUS_CANCELLED: 'cancelled', STATUS_EXPIRED: 'expired' }[
                  settlement.status as string
                ],
              ],
        );
        const end = settlement.timeline[settlement.timeline.length - 1];
        if (end.event === 'expired') expect(end).toMatchObject({ tx_hash: null, actor: null, reason: '' });
        if (end.event === 'cancelled') expect(end.reason).toBe(settlement.cancel_reason);
        if (settlement.cancel_reason === 'LIQUIDATION') expect(end.actor).toBeNull();
        expect(settlement.timeline[0]).toMatchObject({
          tx_hash: settlement.created_tx_hash,
          height: settlement.created_height,
          actor: settlement.proposer,
        });
      }
    });
  });

  it('encumbrances: every one as the chain has it, with its timeline', async () => {
    const ids = await chainIds(async (id) => {
      try {
        await chainQuery(api.store.devnetUrl, '/svc.encumbrance.v1.Query/Encumbrance', { encumbrance_id: String(id) });
        return true;
      } catch {
        return false;
      }
    });
    expect(ids.length).toBeGreaterThan(10);
    const statuses: Record<string, number> = {};
    for (const id of ids) {
      const body = await api.ok(`/v1/encumbrances/${id}`);
      const { encumbrance: chain } = await chainQuery(api.store.devnetUrl, '/svc.encumbrance.v1.Query/Encumbrance', {
        encumbrance_id: String(id),
      });
      const status = String(chain.status).replace('ENCUMBRANCE_STATUS_', '').toLowerCase();
      expect(body.encumbrance).toMatchObject({
        id,
        kind: String(chain.kind).replace('ENCUMBRANCE_KIND_', '').toLowerCase(),
        status,
        holder: chain.holder,
        units: chain.units,
        beneficiary: chain.beneficiary ?? '',
      });
      statuses[`ENCUMBRANCE_STATUS_${status.toUpperCase()}`] =
        (statuses[`ENCUMBRANCE_STATUS_${status.toUpperCase()}`] ?? 0) + 1;
      expect(body.timeline[0]).toMatchObject({
        event: 'created',
        tx_hash: body.encumbrance.created_tx_hash,
        units: { units: body.encumbrance.units },
      });
      expect(body.timeline.map((t: any) => t.event)).toEqual(status === 'active' ? ['created'] : ['created', status]);
      if (status === 'expired')
        expect(body.timeline[1]).toMatchObject({ tx_hash: null, actor: null, actor_role: 'protocol' });
      expect(body.encumbrance.resolved_height === null).toBe(status === 'active');
    }
    expect(statuses).toEqual(api.store.summary.statuses.encumbrance);
    expect((await api.get(`/v1/encumbrances/${ids.length + 1}`)).status).toBe(404);
  });

  it('delegations: every one as the chain has it', async () => {
    const ids = await chainIds(
      async (id) =>
        (await chainQuery(api.store.devnetUrl, '/svc.delegation.v1.Query/Delegation', { delegation_id: String(id) }))
          .found === true,
    );
    expect(ids.length).toBeGreaterThan(5);
    const ended: Record<string, number> = {};
    for (const id of ids) {
      const { delegation } = await api.ok(`/v1/delegations/${id}`);
      const chain = await chainQuery(api.store.devnetUrl, '/svc.delegation.v1.Query/Delegation', {
        delegation_id: String(id),
      });
      expect(delegation).toMatchObject({
        id,
        holder: chain.holder,
        delegate: chain.delegate,
        asset_id: chain.asset_id,
        units: chain.units,
        ended: chain.ended === 'END_REASON_UNSPECIFIED' ? '' : chain.ended,
      });
      expect(Date.parse(delegation.until)).toBe(Date.parse(chain.until));
      expect(delegation.ended_height === null).toBe(delegation.ended === '');
      ended[chain.ended] = (ended[chain.ended] ?? 0) + 1;
    }
    expect(ended).toEqual(api.store.summary.statuses.delegation);
    expect((await api.get(`/v1/delegations/${ids.length + 1}`)).status).toBe(404);
  });

  it('an account lists exactly its active delegations (as holder or delegate), ended ones only by id', async () => {
    const all = await Promise.all(
      (await chainIds(async (id) => (await api.get(`/v1/delegations/${id}`)).status === 200)).map(
        async (id) => (await api.ok(`/v1/delegations/${id}`)).delegation,
      ),
    );
    expect(all.some((d: any) => d.ended !== '')).toBe(true);
    let listed = 0;
    for (const address of new Set(all.flatMap((d: any) => [d.holder, d.delegate]))) {
      const body = await api.ok(`/v1/accounts/${address}`);
      const expected = all
        .filter((d: any) => d.ended === '' && (d.holder === address || d.delegate === address))
        .sort((a: any, b: any) => b.id - a.id);
      expect(body.delegations).toEqual(expected);
      listed += expected.length;
    }
    expect(listed).toBeGreaterThan(0);
  });

  describe('bridge', () => {
    it('routes with counters and outstanding as the chain has them', async () => {
      const { routes } = await api.ok('/v1/bridge/routes');
      expect(routes.map((r: any) => r.route_id)).toEqual([...api.store.summary.routes].sort());
      for (const route of routes) {
        const chain = await chainQuery(api.store.devnetUrl, '/svc.bridge.v1.Query/Route', { route_id: route.route_id });
        expect(route).toMatchObject({
          direction: chain.route.direction,
          status: chain.route.status,
          outbound: chain.counters.outbound,
          inbound: chain.counters.inbound,
          transfers: Number(chain.counters.transfers),
          asset_id: chain.route.asset_id ?? '',
          escrow_address: chain.route.escrow_address ?? '',
        });
        const escrow = await chainQuery(api.store.devnetUrl, '/svc.bridge.v1.Query/EscrowBalance', {
          route_id: route.route_id,
        });
        expect(route.outstanding).toBe(escrow.amount);
        expect((await api.ok(`/v1/bridge/routes/${route.route_id}`)).route).toEqual(route);
      }
      expect((await api.get('/v1/bridge/routes/no-such-route')).status).toBe(404);
    });

    it('transfers: out in flight, in completed, rejected attempts with their reason; every filter', async () => {
      const all = (await walkPages<any>(api, '/v1/bridge/transfers?limit=100')).flatMap((p) => p.transfers);
      const { bridge } = api.store.summary;
      expect(countBy(all, (t) => `${t.direction}/${t.status}`)).toEqual({
        'out/in_flight': bridge.out,
        'in/completed': bridge.in,
        ...(Object.keys(bridge.rejected).length
          ? { 'out/rejected': Object.values(bridge.rejected).reduce((n, c) => n + c, 0) }
          : {}),
      });
      expect(
        countBy(
          all.filter((t) => t.status === 'rejected'),
          (t) => t.reason,
        ),
      ).toEqual(bridge.rejected);
      all
        .filter((t) => t.status === 'rejected')
        .forEach((t) => expect(t).toMatchObject({ event_index: -1, message_id: '' }));
      all
        .filter((t) => t.status !== 'rejected')
        .forEach((t) => expect(t).toMatchObject({ reason: '', message_id: expect.stringMatching(/^0x[0-9a-f]{64}$/) }));
      for (const status of ['in_flight', 'completed', 'rejected']) {
        expect(
          (await walkPages<any>(api, `/v1/bridge/transfers?limit=3&status=${status}`)).flatMap((p) => p.transfers),
        ).toEqual(all.filter((t) => t.status === status));
      }
      for (const route of new Set(all.map((t) => t.route_id))) {
        expect((await walkPages<any>(api, `/v1/bridge/transfers?route=${route}`)).flatMap((p) => p.transfers)).toEqual(
          all.filter((t) => t.route_id === route),
        );
      }
      const sender = all.find((t) => t.direction === 'out').sender;
      expect(
        (await walkPages<any>(api, `/v1/bridge/transfers?account=${sender}&limit=2`)).flatMap((p) => p.transfers),
      ).toEqual(all.filter((t) => t.sender === sender || t.recipient === sender));
      const withId = all.find((t) => t.message_id !== '');
      expect(
        (await api.ok(`/v1/bridge/transfers?message_id=${withId.message_id.toUpperCase().replace('0X', '0x')}`))
          .transfers,
      ).toEqual(all.filter((t) => t.message_id === withId.message_id));
      expect((await api.ok('/v1/bridge/transfers?route=no-such-route')).transfers).toEqual([]);
      all.forEach((t) => expect(typeof t.block_time_ns).toBe('number'));
    });

    it('account filter: the remote party by its 0x bytes32, and a 0x 20-byte key as both the local account and the remote party it pads', async () => {
      const all = (await walkPages<any>(api, '/v1/bridge/transfers?limit=100')).flatMap((p) => p.transfers);
      const matching = (...values: string[]) =>
        all.filter((t) => values.includes(t.sender) || values.includes(t.recipient));
      const filtered = async (account: string) =>
        (await walkPages<any>(api, `/v1/bridge/transfers?account=${account}&limit=2`)).flatMap((p) => p.transfers);

      const remote = all.find((t) => t.direction === 'in').sender as string;
      expect(remote).toMatch(/^0x0{24}[0-9a-f]{40}$/); // the devnet's remote parties are EVM keys, left-padded
      expect(matching(remote).length).toBeGreaterThan(0);
      expect(await filtered(remote)).toEqual(matching(remote));
      expect(await filtered('0x' + remote.slice(2).toUpperCase())).toEqual(matching(remote));

      const key = '0x' + remote.slice(26);
      const local = toBech32(Buffer.from(key.slice(2), 'hex'), 'svc');
      expect(await filtered(key)).toEqual(matching(remote, local));
      expect(await filtered(toChecksumAddress(key))).toEqual(matching(remote, local));
      expect(await filtered(local)).toEqual(matching(local)); // bech32 names a local account only

      const unpadded = '0x' + 'ab'.repeat(32); // not a padded 20-byte key: matched as bytes32 only
      expect(await filtered(unpadded)).toEqual([]);
      expect((await api.get(`/v1/bridge/transfers?account=0x${'a'.repeat(63)}`)).status).toBe(400);
    });

    it('writes block_time_ns as an exact int64', async () => {
      const { text, body } = await api.get('/v1/bridge/transfers?limit=1');
      const raw = /"block_time_ns":(\d+)/.exec(text)![1];
      const { block } = await api.ok(`/v1/blocks/${body.transfers[0].height}`);
      expect(BigInt(raw) / 1_000_000n).toBe(BigInt(Date.parse(block.time)));
      expect(BigInt(raw)).toBeGreaterThan(2n ** 53n);
    });
  });

  it('invariants: the latest check per (asset, kind) and the registry rows, narrowed by asset', async () => {
    const all = await api.ok('/v1/invariants');
    const order = (a: any, b: any) =>
      a.asset_id < b.asset_id ? -1 : a.asset_id > b.asset_id ? 1 : a.kind_id - b.kind_id;
    expect(all.checks).toEqual([...all.checks].sort(order));
    for (const planned of api.store.summary.assets) {
      const mine = await api.ok(`/v1/invariants?asset=${planned.assetId}`);
      expect(mine.checks).toEqual(all.checks.filter((c: any) => c.asset_id === planned.assetId));
      expect(mine.svc20_registry).toEqual(all.svc20_registry.filter((c: any) => c.asset_id === planned.assetId));
      const bundleRows = mine.svc20_registry.filter((r: any) => r.bundle);
      bundleRows.forEach((r: any) => expect(r.kind_id).toBeNull());
      if (bundleRows.length) expect(mine.svc20_registry[mine.svc20_registry.length - 1].bundle).toBe(true);
    }
    expect(await api.ok(`/v1/invariants?asset=${'0'.repeat(64)}`)).toEqual({ checks: [], svc20_registry: [] });
  });
});
