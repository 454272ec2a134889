/** What an RFQ may escrow: the inventory not promised to others, within the global and per-address caps. */
import { escrowRefusal } from '../../../../app-services/desk/reservations';

const CAPS = { maxEscrowBps: 5000, maxEscrowPerAddressBps: 1000 };
const none = { pending: 0n, proposed: 0n, requester: 0n, firstExpiryMs: null };
const NOW = 1_000_000;

describe('escrowRefusal', () => {
  test('within every cap: null', () => {
    expect(escrowRefusal(100n, 1000n, none, CAPS, 'uusdc', NOW)).toBeNull();
  });
  test('RFQs recorded but not proposed are still in the free balance: they are taken off it', () => {
    const e = { ...none, pending: 950n };
    expect(
      escrowRefusal(100n, 1000n, e, { maxEscrowBps: 10_000, maxEscrowPerAddressBps: 10_000 }, 'uusdc', NOW),
    ).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/beyond the desk's inventory: 50 uusdc/),
    });
  });
  test('one address beyond its share of the inventory (free plus what proposals hold): 429 until its first escrow expires', () => {
    const e = { ...none, proposed: 100n, requester: 50n, firstExpiryMs: NOW + 30_500 };
    expect(escrowRefusal(60n, 900n, e, CAPS, 'uusdc', NOW)).toEqual({
      code: 'too_many_requests',
      reason: 'escrow_cap',
      message: expect.stringMatching(/10 %/),
      retryAfterSeconds: 31,
    });
    expect(escrowRefusal(50n, 900n, e, CAPS, 'uusdc', NOW)).toBeNull(); // 100 of 1000: at the cap
  });
  test('every address together beyond the global share: 503', () => {
    const e = { pending: 200n, proposed: 250n, requester: 0n, firstExpiryMs: NOW + 1000 };
    expect(escrowRefusal(51n, 750n, e, CAPS, 'uusdc', NOW)).toMatchObject({
      code: 'unavailable',
      retryAfterSeconds: 1,
    });
    expect(escrowRefusal(50n, 750n, e, CAPS, 'uusdc', NOW)).toBeNull();
  });
  test('an empty inventory escrows nothing', () => {
    expect(escrowRefusal(1n, 0n, none, CAPS, 'uusdc', NOW)?.code).toBe('bad_request');
  });
});
