/**
 * Request values the /api routes share, converted once the document's check of the request
 * (src/http/openapi-params.ts: present, given once) accepted them.
 */
import { tryParseAccountAddress } from '../../src/lib/address';
import { badRequest } from '../../src/http/http-errors';

/** An `address` query parameter (bech32 or 0x, EIP-55 when mixed case) as canonical bech32; a 400 when it is none of the chain's. */
export function addressParam(raw: string, hrp: string): string {
  const address = tryParseAccountAddress(raw, hrp);
  if (!address)
    throw badRequest(
      `address is not an account address: bech32 with prefix ${hrp}1, or 0x + 40 hex (EIP-55 when mixed case)`,
    );
  return address.bech32;
}
