/**
 * The desk's RFQ reservations (docs/app-services.md, "Trade desk"): what an RFQ escrows is
 * reserved in the transaction that records it, under one lock, against the chain's inventory
 * now minus what recorded RFQs not yet proposed will take. Outstanding escrows (RFQs pending,
 * or proposed and still pending on the chain) may hold at most DESK_MAX_ESCROW_BPS of an
 * inventory (its free part plus what proposals hold), and one requester address at most
 * DESK_MAX_ESCROW_PER_ADDRESS_BPS, so RFQs nobody accepts cannot freeze the desk.
 */
import type { HttpErrorCode } from '../../src/http/http-errors';
import type { Reason } from '../risk/reasons';

const BPS = 10_000n;

/** An inventory an RFQ escrows: the stable denom (the desk buys), or one kind of an asset (it sells). */
export type Resource = { side: 'sell' } | { side: 'buy'; assetId: string; kindId: number };

/** Outstanding escrows of one resource, in its base units. */
export interface Escrowed {
  /** recorded, not yet proposed: still in the chain's free balance */
  pending: bigint;
  /** proposed and still pending on the chain: already out of the free balance */
  proposed: bigint;
  /** of both, the requester's */
  requester: bigint;
  /** when the first of them expires (ms), for Retry-After */
  firstExpiryMs: number | null;
}

export interface EscrowCaps {
  maxEscrowBps: number;
  maxEscrowPerAddressBps: number;
}

export interface Refusal {
  code: Extract<HttpErrorCode, 'bad_request' | 'too_many_requests' | 'unavailable'>;
  reason: Reason;
  message: string;
  retryAfterSeconds?: number;
}

const retryAfter = (e: Escrowed, now: number) =>
  Math.max(1, Math.ceil(((e.firstExpiryMs ?? now + 60_000) - now) / 1000));

/** Why `need` more of a resource cannot be escrowed now (`free`: the chain's transferable balance), or null. */
export function escrowRefusal(
  need: bigint,
  free: bigint,
  e: Escrowed,
  caps: EscrowCaps,
  what: string,
  now = Date.now(),
): Refusal | null {
  const available = free - e.pending;
  if (need > available)
    return {
      code: 'bad_request',
      reason: 'inventory',
      message: `beyond the desk's inventory: ${available > 0n ? available : 0n} ${what} are not yet promised to other RFQs, the trade needs ${need}`,
    };
  const total = free + e.proposed;
  if ((e.requester + need) * BPS > BigInt(caps.maxEscrowPerAddressBps) * total)
    return {
      code: 'too_many_requests',
      reason: 'escrow_cap',
      message: `this address's open RFQs would hold more than ${caps.maxEscrowPerAddressBps / 100} % of the desk's ${what}; accept or let them expire first`,
      retryAfterSeconds: retryAfter(e, now),
    };
  if ((e.pending + e.proposed + need) * BPS > BigInt(caps.maxEscrowBps) * total)
    return {
      code: 'unavailable',
      reason: 'escrow_cap',
      message: `open RFQs hold ${caps.maxEscrowBps / 100} % of the desk's ${what}, as much as they may; ask again when some expire`,
      retryAfterSeconds: retryAfter(e, now),
    };
  return null;
}
