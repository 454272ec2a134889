/**
 * The generator's read side: typed answers to the app's own abci queries at
 * the latest committed height. Flows decide what to do next from these
 * answers (is the settlement still pending? how many units are
 * transferable?), never from what they believe they did, so a scenario stays
 * valid at any size and seed.
 */
import { QueryBalanceRequest, QueryBalanceResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { queryJson, type SvcApp } from '../app';

type Json = Record<string, unknown>;

export interface PositionView {
  units: bigint;
  locked: bigint;
  transferable: bigint;
}

export interface PolicyView {
  transfer: string;
  attestation_type: string;
  attester: string;
  allowlist: string[];
}

export interface KindView {
  kind_id: number;
  class: string;
  bundle: boolean;
  transferable: boolean;
  bridgeable: boolean;
  policy_override: PolicyView | null;
}

export interface AssetView {
  asset_id: string;
  issuer: string;
  status: string;
  issuance_locked: boolean;
  kinds: KindView[];
}

export class ChainView {
  constructor(readonly app: SvcApp) {}

  /** Proto-JSON answer of a contract query, or null when the app answers with an error code. */
  query(path: string, request: Json): Json | null {
    const r = queryJson(this.app, path, request);
    return r.code === 0 && r.json ? r.json : null;
  }

  private mustQuery(path: string, request: Json): Json {
    const r = queryJson(this.app, path, request);
    if (r.code !== 0 || !r.json) throw new Error(`scenario: query ${path} failed ${r.codespace}/${r.code}: ${r.log}`);
    return r.json;
  }

  get height(): number {
    return this.app.latestHeight;
  }

  asset(assetId: string): AssetView | null {
    const a = this.query('/svc.asset.v1.Query/Asset', { asset_id: assetId });
    if (!a) return null;
    const kinds = (a.kinds as Json[]).map((k) => ({
      kind_id: Number(k.kind_id),
      class: String(k.class),
      bundle: Boolean(k.bundle),
      transferable: Boolean(k.transferable),
      bridgeable: Boolean(k.bridgeable),
      policy_override: (k.policy_override as PolicyView | null) ?? null,
    }));
    return {
      asset_id: assetId,
      issuer: String(a.issuer),
      status: String(a.status),
      issuance_locked: Boolean(a.issuance_locked),
      kinds,
    };
  }

  position(assetId: string, kindId: number, holder: string): PositionView {
    const p = this.query('/svc.rights.v1.Query/Position', { asset_id: assetId, kind_id: kindId, holder });
    if (!p) return { units: 0n, locked: 0n, transferable: 0n };
    const units = BigInt(String(p.units || '0'));
    const locked = BigInt(String(p.locked || '0'));
    return { units, locked, transferable: units - locked };
  }

  /** Every holder of a kind with its units (paged through Query/Holders). */
  holders(assetId: string, kindId: number): { holder: string; units: bigint; locked: bigint }[] {
    const out: { holder: string; units: bigint; locked: bigint }[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = this.mustQuery('/svc.rights.v1.Query/Holders', {
        asset_id: assetId,
        kind_id: kindId,
        offset: String(offset),
        limit: 500,
      });
      const rows = page.holders as Json[];
      for (const h of rows)
        out.push({ holder: String(h.holder), units: BigInt(String(h.units)), locked: BigInt(String(h.locked)) });
      if (rows.length < 500) return out;
    }
  }

  supply(assetId: string, kindId: number): bigint {
    const s = this.query('/svc.asset.v1.Query/KindSupply', { asset_id: assetId, kind_id: kindId });
    return s ? BigInt(String(s.supply)) : 0n;
  }

  settlement(id: number): Json | null {
    const s = this.query('/svc.settlement.v1.Query/Settlement', { settlement_id: String(id) });
    return (s?.settlement as Json) ?? null;
  }

  encumbrance(id: number): Json | null {
    const e = this.query('/svc.encumbrance.v1.Query/Encumbrance', { encumbrance_id: String(id) });
    return (e?.encumbrance as Json) ?? null;
  }

  delegation(id: number): Json | null {
    const d = this.query('/svc.delegation.v1.Query/Delegation', { delegation_id: String(id) });
    return d && d.found ? d : null;
  }

  attestation(attester: string, subject: string, type: string): { expiryMs: number; revoked: boolean } | null {
    const a = this.query('/svc.attestation.v1.Query/Attestation', { attester, subject, type });
    if (!a || !a.found) return null;
    return { expiryMs: Date.parse(String(a.expiry)), revoked: Boolean(a.revoked) };
  }

  /** What `address` may claim of (asset, kind, denom), own and routed. */
  claimable(address: string, assetId: string, kindId: number, denom: string): bigint {
    const r = this.query('/svc.payout.v1.Query/Claimable', { address });
    const entries = (r?.entries as Json[]) ?? [];
    return entries
      .filter((e) => e.asset_id === assetId && Number(e.kind_id) === kindId && e.denom === denom)
      .reduce((sum, e) => sum + BigInt(String(e.amount)), 0n);
  }

  /** Every claimable (asset, kind, denom) of an account with its total. */
  claimableEntries(address: string): { assetId: string; kindId: number; denom: string; amount: bigint }[] {
    const r = this.query('/svc.payout.v1.Query/Claimable', { address });
    const totals = new Map<string, { assetId: string; kindId: number; denom: string; amount: bigint }>();
    for (const e of (r?.entries as Json[]) ?? []) {
      const key = `${e.asset_id}|${e.kind_id}|${e.denom}`;
      const row = totals.get(key) ?? {
        assetId: String(e.asset_id),
        kindId: Number(e.kind_id),
        denom: String(e.denom),
        amount: 0n,
      };
      row.amount += BigInt(String(e.amount));
      totals.set(key, row);
    }
    return [...totals.values()];
  }

  route(routeId: string): { route: Json; counters: Json } | null {
    const r = this.query('/svc.bridge.v1.Query/Route', { route_id: routeId });
    return r ? { route: r.route as Json, counters: r.counters as Json } : null;
  }

  pool(
    assetId: string,
    quoteDenom: string,
  ): { poolId: number; base: bigint; quote: bigint; pricePerWhole: bigint } | null {
    const p = this.query('/svc.dex.v1.Query/PoolPrice', { asset_id: assetId, quote_denom: quoteDenom });
    if (!p || !p.found) return null;
    return {
      poolId: Number(p.pool_id),
      base: BigInt(String(p.base_reserve)),
      quote: BigInt(String(p.quote_reserve)),
      pricePerWhole: BigInt(String(p.price_per_whole)),
    };
  }

  liquidation(assetId: string): Json | null {
    return this.query('/svc.waterfall.v1.Query/Liquidation', { asset_id: assetId });
  }

  /** Bank balance (cosmos query, protobuf in and out). */
  balance(address: string, denom: string): bigint {
    const r = this.app.query(
      '/cosmos.bank.v1beta1.Query/Balance',
      QueryBalanceRequest.encode({ address, denom }).finish(),
      0,
    );
    if (r.code !== 0) return 0n;
    return BigInt(QueryBalanceResponse.decode(r.value).balance?.amount ?? '0');
  }
}
