/**
 * Request parameters as the routes convert them once the document accepted them
 * (tests/unit/http/parameter-messages.test.ts), and the refusals left to them (an address's
 * checksum, a uint64 beyond a JSON number's precision): each an InvalidInputError (400).
 */
import { InvalidInputError } from '../../../src/lib/errors';
import { toBech32, toChecksumAddress } from '../../../src/lib/address';
import {
  parseAccountFilter,
  parseAddressParam,
  parseHeight,
  parseKindId,
  parseLimit,
  parseMessageId,
  parseNumericId,
  parseSettlementStatus,
  parseTxHash,
  queryValue,
} from '../../../rest-adapter/http/params';

const KEY = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const BECH32 = toBech32(KEY, 'svc');
const EVM = toChecksumAddress(KEY);

function rejects(f: () => unknown): void {
  expect(f).toThrow(InvalidInputError);
}

describe('limit', () => {
  it('defaults when absent and reads the digits the document accepted', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit(undefined, 6)).toBe(6);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('100')).toBe(100);
    expect(parseLimit('007')).toBe(7);
  });
});

describe('query values (/v1/stream)', () => {
  it('refuses a known parameter given twice and passes single values through', () => {
    expect(queryValue({ limit: '5' }, 'limit')).toBe('5');
    expect(queryValue<{ limit?: string }>({}, 'limit')).toBeUndefined();
    rejects(() => queryValue({ limit: ['5', '6'] }, 'limit'));
    rejects(() => queryValue({ limit: { a: '1' } }, 'limit'));
  });
});

describe('path ids', () => {
  it('height: any non-negative integer, as bigint', () => {
    expect(parseHeight('0')).toBe(0n);
    expect(parseHeight('42')).toBe(42n);
    expect(parseHeight('123456789012345678901234567890')).toBe(123456789012345678901234567890n);
  });

  it('kind: a number', () => {
    expect(parseKindId('0')).toBe(0);
    expect(parseKindId('4294967295')).toBe(4294967295);
  });

  it('settlement/encumbrance/delegation id: a uint64 in canonical decimal, its bound exact', () => {
    expect(parseNumericId('7')).toBe('7');
    expect(parseNumericId('007')).toBe('7');
    expect(parseNumericId('18446744073709551615')).toBe('18446744073709551615');
    // the document's maximum, a JSON number, is 2^64 and lets this through
    expect(() => parseNumericId('18446744073709551616')).toThrow(new InvalidInputError('id is out of range'));
  });

  it('tx hash: 64 hex any case (answered upper-case) or 0x + 64 hex (lower-case)', () => {
    const hex = 'aB'.repeat(32);
    expect(parseTxHash(hex)).toEqual({ kind: 'consensus', hash: hex.toUpperCase() });
    expect(parseTxHash('0x' + hex)).toEqual({ kind: 'eth', hash: '0x' + hex.toLowerCase() });
  });
});

describe('addresses', () => {
  it('accepts bech32 (either case) and 0x (lower, upper or valid EIP-55), answering canonical bech32', () => {
    expect(parseAddressParam(BECH32, 'svc').bech32).toBe(BECH32);
    expect(parseAddressParam(BECH32.toUpperCase(), 'svc').bech32).toBe(BECH32);
    expect(parseAddressParam(EVM, 'svc')).toMatchObject({ bech32: BECH32, evm: EVM });
    expect(parseAddressParam(EVM.toLowerCase(), 'svc').bech32).toBe(BECH32);
  });

  it('refuses bad checksums, other prefixes and wrong lengths', () => {
    const i = EVM.slice(2).search(/[a-fA-F]/) + 2; // flip the case of one letter: still mixed case, wrong checksum
    const flipped = EVM[i] === EVM[i].toLowerCase() ? EVM[i].toUpperCase() : EVM[i].toLowerCase();
    const badChecksum = EVM.slice(0, i) + flipped + EVM.slice(i + 1);
    expect(badChecksum).not.toBe(EVM);
    rejects(() => parseAddressParam(badChecksum, 'svc'));
    rejects(() => parseAddressParam(toBech32(KEY, 'cosmos'), 'svc'));
    rejects(() => parseAddressParam(BECH32.slice(0, -1) + (BECH32.endsWith('q') ? 'p' : 'q'), 'svc'));
    rejects(() =>
      parseAddressParam(
        toBech32(
          Uint8Array.from({ length: 20 }, () => 1),
          'svc',
        ).slice(0, -6),
        'svc',
      ),
    );
    rejects(() => parseAddressParam('0x1234', 'svc'));
    rejects(() => parseAccountFilter('nope', 'svc', 'party'));
    expect(parseAccountFilter(EVM, 'svc', 'account')).toBe(BECH32);
  });
});

describe('filters', () => {
  it('settlement status: enum names and short forms, as the enum name', () => {
    expect(parseSettlementStatus('pending')).toBe('STATUS_PENDING');
    expect(parseSettlementStatus('cancelled')).toBe('STATUS_CANCELLED');
    expect(parseSettlementStatus('STATUS_EXPIRED')).toBe('STATUS_EXPIRED');
    expect(parseSettlementStatus(undefined)).toBeUndefined();
  });

  it('message id: compared lower-case', () => {
    expect(parseMessageId('0x' + 'AB'.repeat(32))).toBe('0x' + 'ab'.repeat(32));
    expect(parseMessageId(undefined)).toBeUndefined();
  });
});
