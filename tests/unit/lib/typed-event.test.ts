import { decodeTypedEvent, encodeTypedEvent, isTypedEventType } from '../../../src/lib/typed-event';
import { InvalidInputError } from '../../../src/lib/errors';

const ASSET = 'bec4b97ab8f03458fd86f8bb4eee45b87a0854c5ec0d674005d1236c1721c642';

describe('decodeTypedEvent', () => {
  it('rebuilds the proto-JSON object, JSON-decoding each value and dropping msg_index', () => {
    const attrs = [
      { key: 'asset_id', value: `"${ASSET}"` },
      { key: 'issuer', value: '"svc13wslzz24r02r9qpszfj94sfkmhtymwnj7qda23"' },
      { key: 'nonce', value: '"18446744073709551617"' }, // uint64 as proto-JSON string
      { key: 'kinds', value: '[{"kind_id":0,"class":"ECONOMIC"}]' },
      { key: 'locked', value: 'false' },
      { key: 'memo', value: 'null' },
      { key: 'msg_index', value: '0' },
    ];
    const d = decodeTypedEvent('svc.asset.v1.EventAssetCreated', attrs);
    expect(d).toEqual({
      asset_id: ASSET,
      issuer: 'svc13wslzz24r02r9qpszfj94sfkmhtymwnj7qda23',
      nonce: '18446744073709551617',
      kinds: [{ kind_id: 0, class: 'ECONOMIC' }],
      locked: false,
      memo: null,
    });
    expect(Object.keys(d!)).toEqual(['asset_id', 'issuer', 'nonce', 'kinds', 'locked', 'memo']);
  });

  it('drops the non-JSON mode attribute of block-level events', () => {
    const d = decodeTypedEvent('svc.settlement.v1.EventSettlementExpired', [
      { key: 'id', value: '"12"' },
      { key: 'mode', value: 'EndBlock' },
    ]);
    expect(d).toEqual({ id: '12' });
  });

  it('decodes an event with no fields to {}', () => {
    expect(decodeTypedEvent('svc.asset.v1.EventPing', [{ key: 'msg_index', value: '1' }])).toEqual({});
  });

  it('returns null for events outside the typed packages', () => {
    expect(decodeTypedEvent('transfer', [{ key: 'amount', value: '"1usvc"' }])).toBeNull();
    expect(decodeTypedEvent('cosmos.bank.v1beta1.EventX', [{ key: 'a', value: '1' }])).toBeNull();
    expect(decodeTypedEvent('svcx.asset.v1.EventX', [{ key: 'a', value: '1' }])).toBeNull();
    expect(decodeTypedEvent('svc.', [])).toBeNull();
    expect(decodeTypedEvent('svc.asset v1.Event', [])).toBeNull();
  });

  it('returns null when a value is not JSON (a raw, untyped event)', () => {
    expect(decodeTypedEvent('svc.asset.v1.EventAssetCreated', [{ key: 'asset_id', value: ASSET }])).toBeNull();
    expect(decodeTypedEvent('svc.asset.v1.EventAssetCreated', [{ key: 'asset_id', value: '' }])).toBeNull();
  });

  it('never throws on garbage and returns null', () => {
    const garbage: unknown[] = [
      null,
      undefined,
      'x',
      {},
      [null],
      [{ key: 1, value: '1' }],
      [{ key: 'a' }],
      [{ key: 'a', value: 1 }],
      [{ key: 'a b', value: '1' }],
      [{ key: '', value: '1' }],
      [
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ],
    ];
    for (const g of garbage) {
      expect(() => decodeTypedEvent('svc.asset.v1.EventX', g as never)).not.toThrow();
      expect(decodeTypedEvent('svc.asset.v1.EventX', g as never)).toBeNull();
    }
    expect(decodeTypedEvent(null as never, [])).toBeNull();
    expect(decodeTypedEvent(42 as never, [])).toBeNull();
    const throwingAttr = Object.defineProperty({}, 'key', {
      get() {
        throw new Error('boom');
      },
    });
    expect(decodeTypedEvent('svc.asset.v1.EventX', [throwingAttr] as never)).toBeNull();
  });

  it('does not let a __proto__ attribute pollute prototypes', () => {
    const d = decodeTypedEvent('svc.asset.v1.EventX', [{ key: '__proto__', value: '{"polluted":true}' }]);
    expect(d).not.toBeNull();
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    expect((d as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(d!)).toEqual(['__proto__']);
  });

  it('honours a configured prefix list', () => {
    const attrs = [{ key: 'x', value: '1' }];
    expect(decodeTypedEvent('other.mod.v1.EventY', attrs, { packagePrefixes: ['other.'] })).toEqual({ x: 1 });
    expect(decodeTypedEvent('svc.mod.v1.EventY', attrs, { packagePrefixes: ['other.'] })).toBeNull();
    expect(decodeTypedEvent('svc.mod.v1.EventY', attrs, { packagePrefixes: [] })).toBeNull();
    expect(isTypedEventType('svc.mod.v1.EventY')).toBe(true);
    expect(isTypedEventType('message')).toBe(false);
  });
});

describe('encodeTypedEvent', () => {
  it('writes JSON values in key order, bigints as strings', () => {
    const attrs = encodeTypedEvent('svc.payout.v1.EventDistributed', {
      asset_id: ASSET,
      kind_id: 1,
      amount: 340282366920938463463374607431768211457n,
      new_index: '333333333333333333',
      ok: true,
    });
    expect(attrs).toEqual([
      { key: 'asset_id', value: `"${ASSET}"` },
      { key: 'kind_id', value: '1' },
      { key: 'amount', value: '"340282366920938463463374607431768211457"' },
      { key: 'new_index', value: '"333333333333333333"' },
      { key: 'ok', value: 'true' },
    ]);
  });

  it('round-trips through decodeTypedEvent (with bookkeeping attributes added by the chain)', () => {
    const obj = {
      asset_id: ASSET,
      legs: [{ direction: 'DIRECTION_GIVE', coin: { denom: 'uusdc', amount: '5' } }],
      memo: '',
    };
    const attrs = [...encodeTypedEvent('svc.settlement.v1.EventProposed', obj), { key: 'msg_index', value: '2' }];
    expect(decodeTypedEvent('svc.settlement.v1.EventProposed', attrs)).toEqual(obj);
  });

  it('rejects what would not round-trip', () => {
    expect(() => encodeTypedEvent('svc.x.v1.E', { mode: 'x' })).toThrow(InvalidInputError);
    expect(() => encodeTypedEvent('svc.x.v1.E', { msg_index: 1 })).toThrow(InvalidInputError);
    expect(() => encodeTypedEvent('svc.x.v1.E', { a: undefined })).toThrow(InvalidInputError);
    expect(() => encodeTypedEvent('svc.x.v1.E', { 'a-b': 1 })).toThrow(InvalidInputError);
    expect(() => encodeTypedEvent('not a type', { a: 1 })).toThrow(InvalidInputError);
    expect(() => encodeTypedEvent('svc.x.v1.E', [] as never)).toThrow(InvalidInputError);
  });
});
