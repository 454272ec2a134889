/** Request parameter parsing: every malformed input is an InvalidInputError (400). */
import { InvalidInputError } from '../../../src/lib/errors';
import { toBech32, toChecksumAddress } from '../../../src/lib/address';
import {
  parseAccountFilter,
  parseAddressParam,
  parseAssetFilter,
  parseAssetIdParam,
  parseHeight,
  parseKindId,
  parseLimit,
  parseMessageId,
  parseMethod,
  parseNumericId,
  parseSettlementStatus,
  parseTransferStatus,
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
  it('defaults when absent and accepts 1..100', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit(undefined, 6)).toBe(6);
    expect(parseLimit('1')).toBe(1);
    expect(parseLimit('100')).toBe(100);
    expect(parseLimit('007')).toBe(7);
  });

  it.each(['0', '101', '1000', '-1', '1.5', '1e2', ' 5', '5 ', '+5', '', 'abc', '0x10', '99999999999999999999'])(
    'refuses %j (never clamps)',
    (raw) => {
      rejects(() => parseLimit(raw));
    },
  );
});

describe('query values', () => {
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
    for (const raw of ['-1', '1.0', 'x', '', ' 1', '1a']) rejects(() => parseHeight(raw));
  });

  it('kind: a uint32', () => {
    expect(parseKindId('0')).toBe(0);
    expect(parseKindId('4294967295')).toBe(4294967295);
    for (const raw of ['4294967296', '-1', 'x', '1.5', '']) rejects(() => parseKindId(raw));
  });

  it('settlement/encumbrance/delegation id: a uint64 in canonical decimal', () => {
    expect(parseNumericId('7')).toBe('7');
    expect(parseNumericId('007')).toBe('7');
    expect(parseNumericId('18446744073709551615')).toBe('18446744073709551615');
    for (const raw of ['18446744073709551616', '-1', 'x', '1.0', '']) rejects(() => parseNumericId(raw));
  });

  it('asset id: 64 lower-case hex only', () => {
    const id = 'ab'.repeat(32);
    expect(parseAssetIdParam(id)).toBe(id);
    for (const raw of [id.toUpperCase(), id.slice(2), id + '00', 'zz'.repeat(32), '0x' + id])
      rejects(() => parseAssetIdParam(raw));
    expect(parseAssetFilter(undefined)).toBeUndefined();
    rejects(() => parseAssetFilter('AB'.repeat(32)));
  });

  it('tx hash: 64 hex any case (answered upper-case) or 0x + 64 hex (lower-case)', () => {
    const hex = 'aB'.repeat(32);
    expect(parseTxHash(hex)).toEqual({ kind: 'consensus', hash: hex.toUpperCase() });
    expect(parseTxHash('0x' + hex)).toEqual({ kind: 'eth', hash: '0x' + hex.toLowerCase() });
    for (const raw of [hex.slice(1), '0x' + hex.slice(1), '0X' + hex, 'g'.repeat(64), ''])
      rejects(() => parseTxHash(raw));
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
  it('settlement status: enum names and short forms', () => {
    expect(parseSettlementStatus('pending')).toBe('STATUS_PENDING');
    expect(parseSettlementStatus('STATUS_EXPIRED')).toBe('STATUS_EXPIRED');
    expect(parseSettlementStatus(undefined)).toBeUndefined();
    for (const raw of ['PENDING', 'Pending', 'status_pending', 'open', '', 'toString', '__proto__'])
      rejects(() => parseSettlementStatus(raw));
  });

  it('transfer status, message id, method', () => {
    expect(parseTransferStatus('in_flight')).toBe('in_flight');
    rejects(() => parseTransferStatus('done'));
    expect(parseMessageId('0x' + 'AB'.repeat(32))).toBe('0x' + 'ab'.repeat(32));
    rejects(() => parseMessageId('ab'.repeat(32)));
    expect(parseMethod('/svc.rights.v1.MsgTransfer')).toBe('/svc.rights.v1.MsgTransfer');
    expect(parseMethod('/cosmos.bank.v1beta1.MsgSend')).toBe('/cosmos.bank.v1beta1.MsgSend');
    for (const raw of [
      'MsgTransfer',
      '/MsgTransfer',
      'svc.rights.v1.MsgTransfer',
      '/svc..Msg',
      '/svc.rights.v1.Msg Transfer',
      '',
    ])
      rejects(() => parseMethod(raw));
  });
});
