/**
 * Status, stats, blocks, txs and assets on the node-built store, compared with the chain
 * they came from (devnet RPC, contract queries, the scenario summary).
 */
import { bundleTokenAddress, rightTokenAddress } from '../../../src/lib/ids';
import { Api, devnetRpc, startApi, walkPages } from './api';
import { chainQuery } from './chain';

jest.setTimeout(300_000);

/* eslint-disable @typescript-eslint/no-explicit-any -- API bodies are asserted field by field */

interface ChainBlockResults {
  txs_results: { code: number; gas_used: string; gas_wanted: string; codespace: string; events: unknown[] }[] | null;
  finalize_block_events: { type: string; attributes: { key: string; value: string }[] }[] | null;
}

const sameInstant = (a: string, b: string) => expect(Date.parse(a)).toBe(Date.parse(b));

describe('chain data on the node-built store', () => {
  let api: Api;
  let allTxs: any[];
  const lastBlockMs = () => Date.parse(api.store.summary.lastBlockTime!);

  beforeAll(async () => {
    api = await startApi({ now: () => lastBlockMs() + 42_000 });
    allTxs = (await walkPages<any>(api, '/v1/txs?limit=100')).flatMap((p) => p.txs);
  });
  afterAll(() => api?.close());

  describe('/v1/status and /v1/stats', () => {
    it('status: indexed = chain height from the node metadata, wall-clock lag from the latest block', async () => {
      const status = await api.ok('/v1/status');
      expect(status).toMatchObject({
        indexed_height: api.store.chainHeight,
        chain_height: api.store.chainHeight,
        lag_blocks: 0,
        wall_clock_lag_seconds: 42,
      });
      sameInstant(status.latest_block_time, api.store.summary.lastBlockTime!);
      const drift = await api.store.pool.query(
        `SELECT (SELECT drift_total FROM "${api.store.schema}".chain_totals) + (SELECT count(*) FROM "${api.store.schema}".invariant_checks WHERE NOT agree)
              + (SELECT count(*) FROM "${api.store.schema}".svc20_checks WHERE evaluated AND NOT agree) + (SELECT count(*) FROM "${api.store.schema}".i8_checks WHERE evaluated AND NOT agree) AS n`,
      );
      expect(status.drift_total).toBe(Number(drift.rows[0].n));
    });

    it('stats: every committed tx counted, latest txs newest first, 14 zero-filled UTC days ending on the latest block day', async () => {
      const stats = await api.ok('/v1/stats');
      expect(stats.indexed_height).toBe(api.store.chainHeight);
      expect(stats.tx_count).toBe(api.store.summary.txs.total);
      expect(stats.latest_txs).toEqual(allTxs.slice(0, 6));
      expect((await api.ok('/v1/stats?limit=2')).latest_txs).toEqual(allTxs.slice(0, 2));
      expect((await api.ok('/v1/stats?limit=100')).latest_txs).toEqual(allTxs.slice(0, 100));
      const days: { day: string; count: number }[] = stats.tx_daily;
      expect(days).toHaveLength(14);
      expect(days[13].day).toBe(api.store.summary.lastBlockTime!.slice(0, 10));
      for (let i = 1; i < 14; i++) expect(Date.parse(days[i].day) - Date.parse(days[i - 1].day)).toBe(86_400_000);
      const perDay = new Map<string, number>();
      for (const tx of allTxs)
        perDay.set(tx.block_time.slice(0, 10), (perDay.get(tx.block_time.slice(0, 10)) ?? 0) + 1);
      for (const d of days) expect(d.count).toBe(perDay.get(d.day) ?? 0);
      expect(days.some((d) => d.count === 0) || perDay.size >= 14).toBe(true);
    });
  });

  describe('blocks and txs', () => {
    it('every block matches the chain: txs with their codes, block-level events with their mode, counts', async () => {
      let blockLevel = 0;
      for (let h = 1; h <= api.store.chainHeight; h++) {
        const [detail, results] = await Promise.all([
          api.ok(`/v1/blocks/${h}`),
          devnetRpc<ChainBlockResults>(api.store.devnetUrl, 'block_results', { height: String(h) }),
        ]);
        const txResults = results.txs_results ?? [];
        const finalize = results.finalize_block_events ?? [];
        expect(detail.block.height).toBe(h);
        expect(detail.txs.map((t: any) => t.tx_index)).toEqual(txResults.map((_, i) => i));
        expect(detail.txs.map((t: any) => t.code)).toEqual(txResults.map((r) => r.code));
        expect(detail.txs.map((t: any) => t.gas_used)).toEqual(txResults.map((r) => Number(r.gas_used)));
        expect(detail.txs.map((t: any) => t.events.length)).toEqual(txResults.map((r) => r.events.length));
        expect(detail.events.map((e: any) => e.type)).toEqual(finalize.map((e) => e.type));
        detail.events.forEach((e: any, i: number) => {
          expect(e).toMatchObject({
            event_index: i,
            msg_index: null,
            applied: true,
            mode: finalize[i].attributes.find((a) => a.key === 'mode')?.value,
          });
          expect(e.attributes).toEqual(finalize[i].attributes.map(({ key, value }) => ({ key, value })));
        });
        expect(detail.block.tx_count).toBe(txResults.length);
        expect(detail.block.event_count).toBe(finalize.length + txResults.reduce((n, r) => n + r.events.length, 0));
        blockLevel += finalize.length;
      }
      expect(blockLevel).toBe(Object.values(api.store.summary.blockEvents).reduce((n, c) => n + c, 0));
    });

    it('a tx answers by its consensus hash in any case; failed txs carry codespace and raw_log, others no raw_log', async () => {
      const failed = allTxs.filter((t) => t.code !== 0);
      expect(failed.length).toBe(api.store.summary.txs.failed);
      const perCodespace: Record<string, number> = {};
      for (const t of failed) {
        expect(t.codespace).not.toBe('');
        expect(typeof t.raw_log).toBe('string');
        t.events.forEach((e: any) => expect(e.applied).toBe(false));
        perCodespace[t.codespace] = (perCodespace[t.codespace] ?? 0) + 1;
      }
      expect(perCodespace).toEqual(api.store.summary.codespaces);
      allTxs.filter((t) => t.code === 0).forEach((t) => expect(t).not.toHaveProperty('raw_log'));
      for (const t of [...failed.slice(0, 5), ...allTxs.slice(0, 5)]) {
        expect(await api.ok(`/v1/txs/${t.hash}`)).toEqual(t);
        expect(await api.ok(`/v1/txs/${t.hash.toLowerCase()}`)).toEqual(t);
      }
      const typed = allTxs.find((t) => t.code === 0 && t.events.some((e: any) => e.decoded));
      const event = typed.events.find((e: any) => e.decoded);
      expect(event.applied).toBe(true);
      expect(event.decoded).toEqual(
        Object.fromEntries(
          event.attributes.filter((a: any) => a.key !== 'msg_index').map((a: any) => [a.key, JSON.parse(a.value)]),
        ),
      );
    });

    it('MsgEthereumTx txs carry the EVM view and answer by eth hash; reverts keep code 0', async () => {
      const evmTxs = allTxs.filter((t) => t.msgs[0]['@type'].endsWith('.MsgEthereumTx'));
      expect(evmTxs.length).toBe(api.store.summary.evm.success + api.store.summary.evm.reverted);
      const reverted = evmTxs.filter((t) => t.evm?.status === 0 && t.code === 0);
      expect(reverted).toHaveLength(api.store.summary.evm.reverted);
      const reasons: Record<string, number> = {};
      reverted.forEach((t) => (reasons[t.evm.revert_reason] = (reasons[t.evm.revert_reason] ?? 0) + 1));
      expect(reasons).toEqual(api.store.summary.evm.revertReasons);
      for (const t of evmTxs) {
        expect(t.evm).toMatchObject({ eth_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), value: { denom: 'usvc' } });
        if (t.evm.status === 1) expect(t.evm.revert_reason).toBeNull();
        expect(await api.ok(`/v1/txs/${t.evm.eth_hash}`)).toEqual(t);
        expect(await api.ok(`/v1/txs/${t.evm.eth_hash.toUpperCase().replace('0X', '0x')}`)).toEqual(t);
      }
      allTxs.filter((t) => !t.msgs[0]['@type'].endsWith('.MsgEthereumTx')).forEach((t) => expect(t.evm).toBeNull());
    });
  });

  describe('assets', () => {
    it('every asset with its kinds, derived addresses and accruals as the chain has them', async () => {
      for (const planned of api.store.summary.assets) {
        const { asset } = await api.ok(`/v1/assets/${planned.assetId}`);
        expect(asset).toMatchObject({
          id: planned.assetId,
          meta_hash: planned.metaHash,
          bundle_address: bundleTokenAddress(planned.assetId),
          kind_count: asset.kinds.length,
        });
        const chainAsset = await chainQuery(api.store.devnetUrl, '/svc.asset.v1.Query/Asset', {
          asset_id: planned.assetId,
        });
        expect(asset).toMatchObject({
          issuer: chainAsset.asset_id === planned.assetId ? chainAsset.issuer : '?',
          status: chainAsset.status,
          issuance_locked: Boolean(chainAsset.issuance_locked),
        });
        for (const kind of asset.kinds) {
          const supply = await chainQuery(api.store.devnetUrl, '/svc.asset.v1.Query/KindSupply', {
            asset_id: planned.assetId,
            kind_id: kind.kind_id,
          });
          expect(kind).toMatchObject({
            svc20_address: rightTokenAddress(planned.assetId, kind.kind_id),
            supply: supply.supply,
            holder_count: Number(supply.holder_count),
            multiplier: Number(supply.multiplier),
          });
          expect(kind.effective_supply).toEqual({
            raw: kind.supply,
            multiplier: kind.multiplier,
            effective: (BigInt(kind.supply) * BigInt(kind.multiplier)).toString(),
          });
          expect(kind.policy_source).toBe(kind.policy_override ? 'KIND_OVERRIDE' : 'ASSET');
          expect(kind.effective_policy).toEqual(kind.policy_override ?? asset.policy);
        }
        for (const accrual of asset.accruals) {
          const { accrual: onChain } = await chainQuery(api.store.devnetUrl, '/svc.payout.v1.Query/Accrual', {
            asset_id: planned.assetId,
            kind_id: accrual.kind_id,
            denom: accrual.denom,
          });
          expect(accrual).toMatchObject({
            index: onChain.index,
            carry_scaled: onChain.carry_scaled,
            total_distributed: onChain.total_distributed,
            total_paid: onChain.total_paid,
            distributions_count: Number(onChain.distributions_count),
            module_held: onChain.module_held,
          });
          expect(BigInt(accrual.carry)).toBe(BigInt(accrual.carry_scaled) / 10n ** 18n);
          expect(BigInt(accrual.residue)).toBe(
            BigInt(accrual.module_held) - BigInt(accrual.sum_claimable) - BigInt(accrual.carry),
          );
          expect(BigInt(accrual.residue)).toBeGreaterThanOrEqual(0n);
        }
      }
    });

    it('sum_claimable equals what the chain says every account may claim', async () => {
      // every account the store knows of, income-holding module accounts (dex pools, escrows) included
      const accounts = (
        await api.store.pool.query<{ id: string }>(
          `SELECT id FROM "${api.store.schema}".accounts UNION SELECT account FROM "${api.store.schema}".claimables`,
        )
      ).rows.map((r) => r.id);
      const onChain = new Map<string, bigint>();
      for (const address of accounts) {
        const { entries } = await chainQuery(api.store.devnetUrl, '/svc.payout.v1.Query/Claimable', { address });
        for (const e of entries ?? []) {
          const k = `${e.asset_id}|${e.kind_id ?? 0}|${e.denom}`;
          onChain.set(k, (onChain.get(k) ?? 0n) + BigInt(e.amount));
        }
      }
      let accruals = 0;
      for (const planned of api.store.summary.assets) {
        const { asset } = await api.ok(`/v1/assets/${planned.assetId}`);
        for (const a of asset.accruals) {
          expect(`${a.denom}:${a.sum_claimable}`).toBe(
            `${a.denom}:${onChain.get(`${planned.assetId}|${a.kind_id}|${a.denom}`) ?? 0n}`,
          );
          accruals++;
        }
      }
      expect(accruals).toBeGreaterThan(0);
    });

    it('holders and the rights graph match the chain positions', async () => {
      for (const planned of api.store.summary.assets) {
        const { asset } = await api.ok(`/v1/assets/${planned.assetId}`);
        const graph = await api.ok(`/v1/assets/${planned.assetId}/graph`);
        expect(graph).toMatchObject({ asset_id: planned.assetId, status: asset.status });
        expect(graph.kinds.map((k: any) => k.kind_id)).toEqual(asset.kinds.map((k: any) => k.kind_id));
        for (const kind of asset.kinds) {
          const chainHolders = await chainQuery(api.store.devnetUrl, '/svc.rights.v1.Query/Holders', {
            asset_id: planned.assetId,
            kind_id: kind.kind_id,
            limit: 1000,
          });
          const expected = (chainHolders.holders ?? [])
            .filter((h: any) => BigInt(h.units) > 0n)
            .map((h: any) => ({
              holder: h.holder,
              units: h.units,
              encumbered: h.locked ?? '0',
              locks: [...(h.locks ?? [])].sort((a: any, b: any) => (a.ref < b.ref ? -1 : 1)),
            }))
            .sort((a: any, b: any) =>
              BigInt(b.units) > BigInt(a.units)
                ? 1
                : BigInt(b.units) < BigInt(a.units)
                  ? -1
                  : a.holder < b.holder
                    ? -1
                    : 1,
            );
          const page = await api.ok(`/v1/assets/${planned.assetId}/kinds/${kind.kind_id}/holders?limit=100`);
          expect(
            page.holders.map(({ holder, units, encumbered, locks }: any) => ({ holder, units, encumbered, locks })),
          ).toEqual(expected.slice(0, 100));
          const graphKind = graph.kinds.find((k: any) => k.kind_id === kind.kind_id);
          expect(graphKind).toMatchObject({ class: kind.class, supply: kind.supply, holder_count: kind.holder_count });
          expect(graphKind.holders).toEqual(expected.slice(0, 100));
          for (const h of page.holders) {
            const refs = h.encumbrances.map((e: any) => `encumbrance/${e.id}`);
            refs.forEach((r: string) => expect(h.locks.map((l: any) => l.ref)).toContain(r));
            h.encumbrances.forEach((e: any) => expect(e.status).toBe('active'));
          }
        }
      }
    });

    it('distributions: one per EventDistributed of the asset, as its accruals count them', async () => {
      for (const planned of api.store.summary.assets) {
        const { asset } = await api.ok(`/v1/assets/${planned.assetId}`);
        const all = (await walkPages<any>(api, `/v1/assets/${planned.assetId}/distributions?limit=100`)).flatMap(
          (p) => p.distributions,
        );
        expect(all).toHaveLength(asset.accruals.reduce((n: number, a: any) => n + a.distributions_count, 0));
        for (const a of asset.accruals) {
          const mine = all.filter((d) => d.kind_id === a.kind_id && d.denom === a.denom);
          expect(mine.reduce((n, d) => n + BigInt(d.amount), 0n)).toBe(BigInt(a.total_distributed));
          if (mine.length) expect(mine[0].new_index).toBe(a.index);
        }
      }
    });

    it('liquidation: waterfall tiers, liquidation record and redemption pools as the chain has them', async () => {
      let liquidated = 0;
      for (const planned of api.store.summary.assets) {
        const body = await api.ok(`/v1/assets/${planned.assetId}/liquidation`);
        const chain = await chainQuery(api.store.devnetUrl, '/svc.waterfall.v1.Query/Liquidation', {
          asset_id: planned.assetId,
        });
        const { asset } = await api.ok(`/v1/assets/${planned.assetId}`);
        expect(body.status).toBe(asset.status);
        expect(
          body.waterfall.map((t: any) => ({ rank: t.rank, kind_id: t.kind_id, claim_per_unit: t.claim_per_unit })),
        ).toEqual(
          (chain.tiers ?? []).map((t: any) => ({
            rank: t.rank ?? 0,
            kind_id: t.kind_id ?? 0,
            claim_per_unit: t.claim_per_unit,
          })),
        );
        for (const p of chain.payments ?? []) {
          expect(body.waterfall.find((t: any) => t.rank === (p.rank ?? 0))).toMatchObject({
            owed: p.owed,
            paid: p.paid,
            cumulative_paid: p.cumulative_paid,
          });
        }
        expect(body.redemption_pools).toEqual(
          (chain.pools ?? []).map((p: any) => ({
            kind_id: p.kind_id ?? 0,
            denom: p.denom,
            amount: p.amount,
            units_outstanding: p.units_outstanding,
          })),
        );
        if (asset.status === 'ASSET_STATUS_LIQUIDATED') {
          liquidated++;
          expect(body.liquidation).toMatchObject({
            status: 'completed',
            denom: expect.any(String),
            completed_height: expect.any(Number),
          });
        }
        if ((chain.payments ?? []).length === 0) expect(body.liquidation).toBeNull();
      }
      expect(liquidated).toBe(api.store.summary.statuses.asset.ASSET_STATUS_LIQUIDATED ?? 0);
    });
  });
});
