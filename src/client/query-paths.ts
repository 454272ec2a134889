/**
 * The svc queries the project asks (proto/svc/<module>/v1/query.proto), each path bound to its
 * generated proto-JSON request and response type, so a query is typed by its path. A unit test
 * checks every path against the contract's service definitions.
 */
import * as protobuf from 'protobufjs';
import { contractRoot } from '../lib/contract';
import type * as proto from '../mappings/generated/proto-json';

export interface QueryTypes {
  '/svc.asset.v1.Query/Asset': { request: proto.QueryAssetRequest; response: proto.QueryAssetResponse };
  '/svc.asset.v1.Query/KindSupply': { request: proto.QueryKindSupplyRequest; response: proto.QueryKindSupplyResponse };
  '/svc.asset.v1.Query/TokenRegistry': {
    request: proto.QueryTokenRegistryRequest;
    response: proto.QueryTokenRegistryResponse;
  };
  '/svc.attestation.v1.Query/Attestation': {
    request: proto.QueryAttestationRequest;
    response: proto.QueryAttestationResponse;
  };
  '/svc.bridge.v1.Query/EscrowBalance': {
    request: proto.QueryEscrowBalanceRequest;
    response: proto.QueryEscrowBalanceResponse;
  };
  '/svc.bridge.v1.Query/Route': { request: proto.QueryRouteRequest; response: proto.QueryRouteResponse };
  '/svc.delegation.v1.Query/Delegation': {
    request: proto.QueryDelegationRequest;
    response: proto.QueryDelegationResponse;
  };
  '/svc.dex.v1.Query/PoolPrice': { request: proto.QueryPoolPriceRequest; response: proto.QueryPoolPriceResponse };
  '/svc.encumbrance.v1.Query/Encumbrance': {
    request: proto.QueryEncumbranceRequest;
    response: proto.QueryEncumbranceResponse;
  };
  '/svc.payout.v1.Query/Accrual': { request: proto.QueryAccrualRequest; response: proto.QueryAccrualResponse };
  '/svc.payout.v1.Query/Claimable': { request: proto.QueryClaimableRequest; response: proto.QueryClaimableResponse };
  '/svc.rights.v1.Query/Holders': { request: proto.QueryHoldersRequest; response: proto.QueryHoldersResponse };
  '/svc.rights.v1.Query/Position': { request: proto.QueryPositionRequest; response: proto.QueryPositionResponse };
  '/svc.settlement.v1.Query/Settlement': {
    request: proto.QuerySettlementRequest;
    response: proto.QuerySettlementResponse;
  };
  '/svc.waterfall.v1.Query/Liquidation': {
    request: proto.QueryLiquidationRequest;
    response: proto.QueryLiquidationResponse;
  };
}

export type QueryPath = keyof QueryTypes;
export type QueryRequest<P extends QueryPath> = QueryTypes[P]['request'];
export type QueryResponse<P extends QueryPath> = QueryTypes[P]['response'];

const QUERY_PATH = /^\/([A-Za-z0-9_.]+)\/([A-Za-z0-9_]+)$/;

/** Request and response type names of a query path, from the contract's service definitions. */
export function queryMethodTypes(path: string): { requestType: string; responseType: string } {
  const m = QUERY_PATH.exec(path);
  const service = m ? contractRoot.lookup(m[1]) : null;
  const method = service instanceof protobuf.Service ? service.methods[m![2]] : undefined;
  if (!method) throw new Error(`unknown query path ${path}`);
  method.resolve();
  return {
    requestType: method.resolvedRequestType!.fullName.slice(1),
    responseType: method.resolvedResponseType!.fullName.slice(1),
  };
}
