/**
 * Message routing: type URL → handler, the msg field that must have signed,
 * the module name of the SDK `message` event and the response type (from the
 * contract's `service Msg` definitions).
 */
import * as protobuf from 'protobufjs';
import { contractRoot, toProtoJson } from '../../src/lib/contract';
import type { Env } from './env';
import { sdkErrors } from './errors';
import * as asset from './modules/asset';
import * as rights from './modules/rights';
import * as settlement from './modules/settlement';
import * as encumbrance from './modules/encumbrance';
import * as payout from './modules/payout';
import * as attestation from './modules/attestation';
import * as delegation from './modules/delegation';
import * as waterfall from './modules/waterfall';
import * as bridge from './modules/bridge';
import * as dex from './modules/dex';
import * as evm from './modules/evm';
import { handleMsgSend } from './modules/bank';

export interface HandlerResult {
  response: Record<string, unknown>;
  /** the account the `message` event names when the msg has no signer field (EVM) */
  sender?: string;
  /** EVM gas used, added to the consensus gas */
  evmGasUsed?: bigint;
}

type SimpleHandler = (env: Env, msg: Record<string, unknown>) => Record<string, unknown>;

export interface Route {
  typeUrl: string;
  module: string;
  /** msg field holding the signer; null when the signature is inside the msg (EVM) */
  signerField: string | null;
  /** proto type name for normalization; null for types outside the contract (bank MsgSend) */
  typeName: string | null;
  /** proto response type name for TxMsgData; null = empty response */
  responseType: string | null;
  handle(env: Env, msg: Record<string, unknown>): HandlerResult;
}

const SVC_HANDLERS: Record<string, [string, SimpleHandler]> = {
  '/svc.asset.v1.MsgCreateAsset': ['issuer', asset.handleCreateAsset],
  '/svc.asset.v1.MsgIssue': ['issuer', asset.handleIssue],
  '/svc.asset.v1.MsgLockIssuance': ['issuer', asset.handleLockIssuance],
  '/svc.asset.v1.MsgSetKindPolicy': ['issuer', asset.handleSetKindPolicy],
  '/svc.asset.v1.MsgSplitKind': ['issuer', asset.handleSplitKind],
  '/svc.asset.v1.MsgSetBridgeable': ['issuer', asset.handleSetBridgeable],
  '/svc.rights.v1.MsgTransfer': ['sender', rights.handleTransfer],
  '/svc.rights.v1.MsgTransferBundle': ['sender', rights.handleTransferBundle],
  '/svc.settlement.v1.MsgPropose': ['proposer', settlement.handlePropose],
  '/svc.settlement.v1.MsgAccept': ['counterparty', settlement.handleAccept],
  '/svc.settlement.v1.MsgCancel': ['sender', settlement.handleCancel],
  '/svc.encumbrance.v1.MsgCreateEncumbrance': ['creator', encumbrance.handleCreateEncumbrance],
  '/svc.encumbrance.v1.MsgRelease': ['sender', encumbrance.handleRelease],
  '/svc.encumbrance.v1.MsgExercise': ['sender', encumbrance.handleExercise],
  '/svc.payout.v1.MsgDistribute': ['payer', payout.handleDistribute],
  '/svc.payout.v1.MsgClaim': ['claimer', payout.handleClaim],
  '/svc.attestation.v1.MsgAttest': ['attester', attestation.handleAttest],
  '/svc.attestation.v1.MsgRevokeAttestation': ['attester', attestation.handleRevokeAttestation],
  '/svc.delegation.v1.MsgDelegate': ['holder', delegation.handleDelegate],
  '/svc.delegation.v1.MsgRevokeDelegation': ['holder', delegation.handleRevokeDelegation],
  '/svc.delegation.v1.MsgReturnDelegation': ['delegate', delegation.handleReturnDelegation],
  '/svc.waterfall.v1.MsgSetWaterfall': ['issuer', waterfall.handleSetWaterfall],
  '/svc.waterfall.v1.MsgLiquidate': ['authority', waterfall.handleLiquidate],
  '/svc.waterfall.v1.MsgFundRedemption': ['issuer', waterfall.handleFundRedemption],
  '/svc.waterfall.v1.MsgRedeem': ['holder', waterfall.handleRedeem],
  '/svc.bridge.v1.MsgCreateRoute': ['authority', bridge.handleCreateRoute],
  '/svc.bridge.v1.MsgSetRouteStatus': ['authority', bridge.handleSetRouteStatus],
  '/svc.bridge.v1.MsgBridgeOut': ['sender', bridge.handleBridgeOut],
  '/svc.bridge.v1.MsgBridgeIn': ['relayer', bridge.handleBridgeIn],
  '/svc.dex.v1.MsgCreatePool': ['creator', dex.handleCreatePool],
  '/svc.dex.v1.MsgSwap': ['trader', dex.handleSwap],
};

/** request type full name → response type full name, from every `service Msg` of the contract */
function msgResponseTypes(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const o of ns.nestedArray) {
      if (o instanceof protobuf.Service && o.name === 'Msg') {
        for (const m of o.methodsArray)
          out.set(
            o.parent!.fullName.slice(1) + '.' + m.requestType,
            o.parent!.fullName.slice(1) + '.' + m.responseType,
          );
      } else if (o instanceof protobuf.Namespace) walk(o);
    }
  };
  walk(contractRoot);
  return out;
}

/** `svc.asset.v1` → `asset` */
const moduleOf = (typeName: string) => typeName.split('.')[1];

function buildRoutes(): Map<string, Route> {
  const responses = msgResponseTypes();
  const routes = new Map<string, Route>();
  for (const [typeUrl, [signerField, handler]] of Object.entries(SVC_HANDLERS)) {
    const typeName = typeUrl.slice(1);
    routes.set(typeUrl, {
      typeUrl,
      module: moduleOf(typeName),
      signerField,
      typeName,
      responseType: responses.get(typeName) ?? null,
      handle: (env, msg) => ({ response: handler(env, msg) }),
    });
  }
  routes.set('/cosmos.bank.v1beta1.MsgSend', {
    typeUrl: '/cosmos.bank.v1beta1.MsgSend',
    module: 'bank',
    signerField: 'from_address',
    typeName: null,
    responseType: null,
    handle: (env, msg) => ({ response: handleMsgSend(env, msg) }),
  });
  for (const typeUrl of [evm.COSMOS_EVM_MSG, evm.ETHERMINT_MSG]) {
    routes.set(typeUrl, {
      typeUrl,
      module: 'evm',
      signerField: null,
      // not normalized: the ethermint Any comes in either proto-JSON shape, the handler reads both
      typeName: null,
      responseType: typeUrl.slice(1) + 'Response',
      handle: (env, msg) => {
        const r = evm.handleEthereumTx(env, typeUrl, msg);
        return { response: r.response, sender: r.sender, evmGasUsed: r.gasUsed };
      },
    });
  }
  return routes;
}

const ROUTES = buildRoutes();

export function routeOf(typeUrl: string): Route {
  const route = ROUTES.get(typeUrl);
  if (!route) throw sdkErrors.unknownRequest(`unrecognized message type: ${typeUrl}`);
  return route;
}

/** Canonical proto-JSON of a message value (defaults filled, enums as names); sdk/2 when it does not fit its type. */
export function normalizeMessage(route: Route, value: Record<string, unknown>): Record<string, unknown> {
  if (!route.typeName) return value;
  try {
    return toProtoJson(route.typeName, value);
  } catch (e) {
    throw sdkErrors.txDecode(`${route.typeUrl}: ${(e as Error).message}`);
  }
}

/** Every routed type URL (for docs and tests). */
export const ROUTED_TYPE_URLS: readonly string[] = [...ROUTES.keys()].sort();
