/** Bridge-route arithmetic shared by the read API and the reconciler (openapi.yaml BridgeRoute, I8Check). */

/**
 * Expected escrow (NATIVE_OUT, RIGHT_OUT: outbound − inbound) or expected synthetic
 * supply (SYNTHETIC_IN: inbound − outbound).
 */
export function outstanding(direction: string, outbound: bigint, inbound: bigint): bigint {
  return direction === 'DIRECTION_SYNTHETIC_IN' ? inbound - outbound : outbound - inbound;
}
