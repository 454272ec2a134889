/**
 * abci_query: `/svc.<module>.v1.Query/<Method>` with protobuf request bytes,
 * answered from the committed state at a height (0 = latest), plus the
 * cosmos bank/auth queries cosmjs clients need.
 */
import * as protobuf from 'protobufjs';
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import {
  QueryBalanceRequest,
  QueryBalanceResponse,
  QueryAllBalancesRequest,
  QueryAllBalancesResponse,
} from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';
import { contractRoot, decodeMessage, encodeMessage } from '../../src/lib/contract';
import { hexToBytes } from '../../src/lib/bytes';
import { QueryEnv, versionAtLeast, rfc3339, wire, idNumber } from './env';
import { AppError, assetErrors, bridgeErrors, encumbranceErrors, sdkErrors, settlementErrors } from './errors';
import * as assetMod from './modules/asset-state';
import * as rights from './modules/rights';
import * as payout from './modules/payout';
import * as bridge from './modules/bridge';
import * as dex from './modules/dex';
import { getSettlement, settlementProto } from './modules/settlement';
import { getEncumbrance, encumbranceProto } from './modules/encumbrance';
import { getAttestation } from './modules/attestation';
import { getDelegation } from './modules/delegation';
import { getTiers, getLiquidation, listPools } from './modules/waterfall';
import { tokenRegistry } from './modules/evm';
import { getAccount } from './modules/auth';
import { balance, allBalances } from './modules/bank';

type Request = Record<string, unknown>;
type SvcQuery = (q: QueryEnv, req: Request) => Record<string, unknown>;

const kindProto = (k: assetMod.KindRec) => k;

function requireAsset(q: QueryEnv, id: unknown): assetMod.AssetRec {
  const asset = assetMod.getAsset(q.kv, String(id ?? ''));
  if (!asset) throw assetErrors.notFound(String(id));
  return asset;
}

function requireKindOf(q: QueryEnv, req: Request): { asset: assetMod.AssetRec; kind: assetMod.KindRec } {
  const asset = requireAsset(q, req.asset_id);
  return { asset, kind: assetMod.requireKind(asset, req.kind_id) };
}

const locksProto = (p: rights.PositionRec) => p.locks.map((l) => ({ ref: l.ref, units: l.units }));

const SVC_QUERIES: Record<string, SvcQuery> = {
  '/svc.asset.v1.Query/Asset': (q, req) => {
    const a = requireAsset(q, req.asset_id);
    return {
      asset_id: a.asset_id,
      issuer: a.issuer,
      nonce: a.nonce,
      status: a.status,
      meta_hash: a.meta_hash,
      issuance_locked: a.issuance_locked,
      kinds: a.kinds.map(kindProto),
    };
  },
  '/svc.asset.v1.Query/KindSupply': (q, req) => {
    const { asset, kind } = requireKindOf(q, req);
    const s = rights.getSupply(q.kv, asset.asset_id, kind.kind_id);
    return { supply: s.supply, holder_count: s.holder_count, multiplier: kind.multiplier };
  },
  '/svc.asset.v1.Query/TokenRegistry': (q, req) => ({
    entries: tokenRegistry(q.kv, requireAsset(q, req.asset_id).asset_id),
  }),
  '/svc.rights.v1.Query/Position': (q, req) => {
    const { asset, kind } = requireKindOf(q, req);
    const p = rights.getPosition(q.kv, asset.asset_id, kind.kind_id, String(req.holder ?? ''));
    return { units: p.units, locked: p.locked, locks: locksProto(p) };
  },
  '/svc.rights.v1.Query/Holders': (q, req) => {
    const { asset, kind } = requireKindOf(q, req);
    const parent = rights.positionParent(asset.asset_id, kind.kind_id);
    const keys = q.kv.keys(parent);
    const offset = Number(req.offset ?? 0);
    const limit = Math.min(Number(req.limit || 100), 1000);
    const holders = keys.slice(offset, offset + limit).map((key) => {
      const p = q.kv.get<rights.PositionRec>(key)!;
      return { holder: key.slice(parent.length), units: p.units, locked: p.locked, locks: locksProto(p) };
    });
    return { holders, total: keys.length };
  },
  '/svc.settlement.v1.Query/Settlement': (q, req) => {
    const s = getSettlement(q.kv, idNumber(req.settlement_id));
    if (!s) throw settlementErrors.notFound(String(req.settlement_id));
    return { settlement: settlementProto(s) };
  },
  '/svc.encumbrance.v1.Query/Encumbrance': (q, req) => {
    const e = getEncumbrance(q.kv, idNumber(req.encumbrance_id));
    if (!e) throw encumbranceErrors.notFound(String(req.encumbrance_id));
    return { encumbrance: encumbranceProto(e) };
  },
  '/svc.payout.v1.Query/Accrual': (q, req) => {
    const { asset, kind } = requireKindOf(q, req);
    const denom = String(req.denom ?? '');
    const a = payout.getAccrual(q.kv, asset.asset_id, kind.kind_id, denom);
    return {
      accrual: {
        asset_id: asset.asset_id,
        kind_id: kind.kind_id,
        denom,
        index: a.index,
        carry_scaled: a.carry_scaled,
        total_distributed: a.total_distributed,
        total_paid: a.total_paid,
        distributions_count: a.distributions_count,
        module_held: a.module_held,
      },
    };
  },
  '/svc.payout.v1.Query/Claimable': (q, req) => ({
    entries: payout.claimableRows(q.kv, String(req.address ?? '')).map((r) => ({
      routed_from: r.routed_from,
      ref: r.ref,
      asset_id: r.asset_id,
      kind_id: r.kind_id,
      denom: r.denom,
      amount: r.pending + r.accrued,
    })),
  }),
  '/svc.attestation.v1.Query/Attestation': (q, req) => {
    const a = getAttestation(q.kv, String(req.attester ?? ''), String(req.subject ?? ''), String(req.type ?? ''));
    return a
      ? { found: true, expiry: rfc3339(a.expiry_ms), revoked: a.revoked, evidence_hash: a.evidence_hash }
      : { found: false };
  },
  '/svc.delegation.v1.Query/Delegation': (q, req) => {
    const d = getDelegation(q.kv, idNumber(req.delegation_id));
    if (!d) return { found: false };
    return {
      found: true,
      holder: d.holder,
      delegate: d.delegate,
      asset_id: d.asset_id,
      kind_id: d.kind_id,
      units: d.units,
      until: rfc3339(d.until_ms),
      ended: d.ended || 'END_REASON_UNSPECIFIED',
    };
  },
  '/svc.waterfall.v1.Query/Liquidation': (q, req) => {
    const asset = requireAsset(q, req.asset_id);
    return {
      tiers: getTiers(q.kv, asset.asset_id),
      liquidating: asset.status === assetMod.ASSET_LIQUIDATING,
      payments: getLiquidation(q.kv, asset.asset_id)?.payments ?? [],
      pools: listPools(q.kv, asset.asset_id),
    };
  },
  '/svc.bridge.v1.Query/Route': (q, req) => {
    const route = bridge.getRoute(q.kv, String(req.route_id ?? ''));
    if (!route) throw bridgeErrors.unknownRoute(String(req.route_id));
    return { route: bridge.routeProto(route), counters: bridge.getCounters(q.kv, route.route_id) };
  },
  '/svc.bridge.v1.Query/EscrowBalance': (q, req) => {
    const route = bridge.getRoute(q.kv, String(req.route_id ?? ''));
    if (!route) throw bridgeErrors.unknownRoute(String(req.route_id));
    return { amount: bridge.escrowBalance(q.kv, route, q.config.chain.hrp) };
  },
  '/svc.dex.v1.Query/PoolPrice': (q, req) => {
    const pool = dex.poolOfPair(q.kv, String(req.asset_id ?? ''), String(req.quote_denom ?? ''));
    const asset = pool && assetMod.getAsset(q.kv, pool.asset_id);
    if (!pool || !asset) return { found: false };
    const r = dex.reserves(q.kv, pool, asset);
    return {
      found: true,
      pool_id: pool.pool_id,
      base_reserve: r.base,
      quote_reserve: r.quote,
      price_per_whole: dex.pricePerWhole(q.kv, pool, asset),
    };
  },
};

/** Query paths of features newer than the app version answer "unknown query path". */
const MIN_VERSION: Record<string, string> = {
  '/svc.asset.v1.Query/TokenRegistry': '0.9.0',
};

/** `/svc.asset.v1.Query/Asset` → [request type, response type] from the contract's `service Query`. */
function queryTypes(): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const o of ns.nestedArray) {
      if (o instanceof protobuf.Service && o.name === 'Query') {
        const pkg = o.parent!.fullName.slice(1);
        for (const m of o.methodsArray)
          out.set(`/${pkg}.Query/${m.name}`, [`${pkg}.${m.requestType}`, `${pkg}.${m.responseType}`]);
      } else if (o instanceof protobuf.Namespace) walk(o);
    }
  };
  walk(contractRoot);
  return out;
}

const QUERY_TYPES = queryTypes();

// ------------------------------------------------------------------ cosmos queries

function accountQuery(q: QueryEnv, data: Uint8Array): Uint8Array {
  const { address } = QueryAccountRequest.decode(data);
  const account = getAccount(q.kv, address);
  if (!account)
    throw new AppError('sdk', 22, `rpc error: code = NotFound desc = account ${address} not found: key not found`);
  const base = BaseAccount.fromPartial({
    address,
    accountNumber: account.account_number,
    sequence: account.sequence,
    pubKey: account.pub_key
      ? {
          typeUrl: '/cosmos.crypto.secp256k1.PubKey',
          value: PubKey.encode({ key: hexToBytes(account.pub_key) }).finish(),
        }
      : undefined,
  });
  return QueryAccountResponse.encode({
    account: { typeUrl: '/cosmos.auth.v1beta1.BaseAccount', value: BaseAccount.encode(base).finish() },
  }).finish();
}

function balanceQuery(q: QueryEnv, data: Uint8Array): Uint8Array {
  const { address, denom } = QueryBalanceRequest.decode(data);
  return QueryBalanceResponse.encode({ balance: { denom, amount: balance(q.kv, address, denom).toString() } }).finish();
}

function allBalancesQuery(q: QueryEnv, data: Uint8Array): Uint8Array {
  const { address } = QueryAllBalancesRequest.decode(data);
  const balances = allBalances(q.kv, address).map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
  return QueryAllBalancesResponse.encode({ balances, pagination: undefined }).finish();
}

const COSMOS_QUERIES: Record<string, (q: QueryEnv, data: Uint8Array) => Uint8Array> = {
  '/cosmos.auth.v1beta1.Query/Account': accountQuery,
  '/cosmos.bank.v1beta1.Query/Balance': balanceQuery,
  '/cosmos.bank.v1beta1.Query/AllBalances': allBalancesQuery,
};

// ------------------------------------------------------------------ dispatch

/** Answers one query path; throws AppError (sdk/6 for an unknown path). */
export function runQuery(q: QueryEnv, path: string, data: Uint8Array): Uint8Array {
  const cosmos = COSMOS_QUERIES[path];
  if (cosmos) return cosmos(q, data);
  const handler = SVC_QUERIES[path];
  const types = QUERY_TYPES.get(path);
  const minVersion = MIN_VERSION[path];
  if (!handler || !types || (minVersion && !versionAtLeast(q.config.version, minVersion))) {
    throw sdkErrors.unknownRequest(`unknown query path: ${path}`);
  }
  let request: Request;
  try {
    request = decodeMessage(types[0], data);
  } catch (e) {
    throw sdkErrors.invalidRequest(`cannot decode ${types[0]}: ${(e as Error).message}`);
  }
  return encodeMessage(types[1], wire(handler(q, request)) as Record<string, unknown>);
}

/** Every answered query path (for docs and tests). */
export const QUERY_PATHS: readonly string[] = [...Object.keys(SVC_QUERIES), ...Object.keys(COSMOS_QUERIES)].sort();
