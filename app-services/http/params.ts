/** Request values the /api routes share, parsed before the document's own check (src/http/openapi-params.ts). */
import { tryParseAccountAddress } from '../../src/lib/address';
import { badRequest } from '../../src/http/http-errors';

/** A required `address` query parameter (bech32 or 0x, EIP-55 when mixed case), as canonical bech32. */
export function addressParam(raw: unknown, hrp: string): string {
  if (raw === undefined || raw === '') throw badRequest('address is required (a bech32 or 0x account address)');
  if (typeof raw !== 'string') throw badRequest('address must be given once');
  const address = tryParseAccountAddress(raw, hrp);
  if (!address)
    throw badRequest(
      `address is not an account address: bech32 with prefix ${hrp}1, or 0x + 40 hex (EIP-55 when mixed case)`,
    );
  return address.bech32;
}
