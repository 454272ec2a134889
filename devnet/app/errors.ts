/**
 * ABCI errors of the devnet application: (codespace, code) pairs as the Cosmos
 * SDK registers them. Handlers throw AppError; deliverTx turns it into a
 * failed TxResult (all message state dropped). Table in devnet/README.md.
 */
export class AppError extends Error {
  constructor(
    readonly codespace: string,
    readonly code: number,
    message: string,
  ) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = 'AppError';
  }

  /** `codespace/code`, the form the API shows as a rejected transfer's reason. */
  get tag(): string {
    return `${this.codespace}/${this.code}`;
  }
}

/** Cosmos SDK root codespace errors used by the devnet. */
export const sdkErrors = {
  internal: (msg: string) => new AppError('sdk', 1, msg),
  txDecode: (msg: string) => new AppError('sdk', 2, `tx parse error: ${msg}`),
  invalidSequence: (msg: string) => new AppError('sdk', 3, `invalid sequence: ${msg}`),
  unauthorized: (msg: string) => new AppError('sdk', 4, `unauthorized: ${msg}`),
  insufficientFunds: (msg: string) => new AppError('sdk', 5, `insufficient funds: ${msg}`),
  unknownRequest: (msg: string) => new AppError('sdk', 6, `unknown request: ${msg}`),
  insufficientFee: (msg: string) => new AppError('sdk', 13, `insufficient fee: ${msg}`),
  invalidAddress: (msg: string) => new AppError('sdk', 7, `invalid address: ${msg}`),
  outOfGas: (msg: string) => new AppError('sdk', 11, `out of gas: ${msg}`),
  invalidRequest: (msg: string) => new AppError('sdk', 18, `invalid request: ${msg}`),
  invalidHeight: (msg: string) => new AppError('sdk', 26, `invalid height: ${msg}`),
  invalidChainId: (msg: string) => new AppError('sdk', 41, `invalid chain-id: ${msg}`),
};

/** Builds the error constructors of one module codespace from a {name: [code, prefix]} table. */
function codespace<T extends Record<string, [number, string]>>(
  space: string,
  table: T,
): { [K in keyof T]: (detail?: string) => AppError } {
  const out = {} as { [K in keyof T]: (detail?: string) => AppError };
  for (const name of Object.keys(table) as (keyof T)[]) {
    const [code, prefix] = table[name];
    out[name] = (detail?: string) => new AppError(space, code, detail ? `${prefix}: ${detail}` : prefix);
  }
  return out;
}

export const assetErrors = codespace('asset', {
  notFound: [2, 'asset not found'],
  kindNotFound: [3, 'kind not found'],
  unauthorized: [4, 'not the issuer'],
  issuanceLocked: [5, 'issuance locked'],
  invalid: [6, 'invalid asset'],
  notActive: [7, 'asset not active'],
});

export const rightsErrors = codespace('rights', {
  insufficient: [2, 'insufficient transferable units'],
  notTransferable: [3, 'kind not transferable'],
  policyDenied: [4, 'policy denied'],
  invalidAmount: [5, 'invalid units'],
  noBundleKinds: [6, 'asset has no bundle kinds'],
});

export const settlementErrors = codespace('settlement', {
  notFound: [2, 'settlement not found'],
  notPending: [3, 'settlement not pending'],
  unauthorized: [4, 'not a party of the settlement'],
  expired: [5, 'settlement expired'],
  invalidLegs: [6, 'invalid legs'],
  assetNotActive: [7, 'asset not active'],
  invalid: [8, 'invalid settlement'],
});

export const encumbranceErrors = codespace('encumbrance', {
  notFound: [2, 'encumbrance not found'],
  notActive: [3, 'encumbrance not active'],
  unauthorized: [4, 'unauthorized'],
  notExercisable: [5, 'encumbrance not exercisable'],
  liensNotAllowed: [6, 'liens not allowed for this asset'],
  invalid: [7, 'invalid encumbrance'],
});

export const payoutErrors = codespace('payout', {
  nothingToClaim: [2, 'nothing to claim'],
  denomNotAllowed: [3, 'denom not in distribution_denoms'],
  zeroSupply: [4, 'kind has no supply'],
  invalidAmount: [5, 'invalid amount'],
});

export const attestationErrors = codespace('attestation', {
  notFound: [2, 'attestation not found'],
  invalid: [3, 'invalid attestation'],
});

export const delegationErrors = codespace('delegation', {
  notFound: [2, 'delegation not found'],
  ended: [3, 'delegation ended'],
  unauthorized: [4, 'unauthorized'],
  notRevocable: [5, 'delegation not revocable'],
  notVoteKind: [6, 'kind is not VOTE class'],
  invalid: [7, 'invalid delegation'],
});

export const waterfallErrors = codespace('waterfall', {
  noWaterfall: [2, 'no waterfall set'],
  unauthorized: [3, 'unauthorized'],
  assetNotActive: [4, 'asset not active'],
  notRedemptionKind: [5, 'kind is not REDEMPTION class'],
  noPool: [6, 'no redemption pool'],
  invalidTiers: [7, 'invalid tiers'],
  invalidAmount: [8, 'invalid amount'],
  denomMismatch: [9, 'pool denom mismatch'],
});

export const bridgeErrors = codespace('bridge', {
  unknownRoute: [2, 'unknown route'],
  direction: [3, 'direction not allowed by the route'],
  paused: [4, 'route paused'],
  capExceeded: [5, 'window cap exceeded'],
  notBridgeable: [6, 'kind not bridgeable'],
  policyNotOpen: [7, "kind's effective policy is not OPEN"],
  unauthorized: [8, 'unauthorized'],
  invalidAmount: [9, 'invalid amount'],
  routeExists: [10, 'route exists'],
  duplicateMessage: [11, 'message already delivered'],
  invalidRoute: [12, 'invalid route'],
});

export const dexErrors = codespace('dex', {
  poolNotFound: [2, 'pool not found'],
  slippage: [3, 'output below min_out'],
  invalidAmount: [4, 'invalid amount'],
  poolExists: [5, 'pool exists for this asset and quote denom'],
});
