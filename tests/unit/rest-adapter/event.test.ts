/** The read side of events: openapi Event objects derived from the raw events stored with a tx or a block. */
import { toJson } from '../../../rest-adapter/json';
import { BLOCK_LEVEL, deriveEvent, presentEvents, txOrigin } from '../../../rest-adapter/presenters/events';
import { presentTx } from '../../../rest-adapter/presenters/txs';
import { presentActivity } from '../../../rest-adapter/presenters/activity';

const ASSET = 'ab'.repeat(32);

/** A typed svc event as the chain emits it: JSON-encoded field values, bookkeeping msg_index; Comet's `index` flag on each attribute. */
const transferred = {
  type: 'svc.rights.v1.EventTransferred',
  attributes: [
    { key: 'asset_id', value: JSON.stringify(ASSET), index: true },
    { key: 'units', value: '"5"', index: true },
    { key: 'msg_index', value: '0', index: true },
  ],
};
const fee = {
  type: 'tx',
  attributes: [
    { key: 'fee', value: '10usvc', index: true },
    { key: 'fee_payer', value: 'svc1payer', index: true },
  ],
};
const message = {
  type: 'message',
  attributes: [
    { key: 'action', value: '/svc.rights.v1.MsgTransfer' },
    { key: 'msg_index', value: '2' },
  ],
};
const expired = {
  type: 'svc.settlement.v1.EventSettlementExpired',
  attributes: [
    { key: 'settlement_id', value: '"7"' },
    { key: 'mode', value: 'EndBlock' },
  ],
};
const plainBlockEvent = {
  type: 'coin_spent',
  attributes: [
    { key: 'amount', value: '1usvc' },
    { key: 'mode', value: 'BeginBlock' },
  ],
};

describe('deriveEvent', () => {
  it('a typed event of a successful tx: decoded without bookkeeping, msg_index from its attribute, applied, no mode', () => {
    expect(deriveEvent(transferred, 3, txOrigin(0))).toEqual({
      event_index: 3,
      type: 'svc.rights.v1.EventTransferred',
      msg_index: 0,
      attributes: [
        { key: 'asset_id', value: JSON.stringify(ASSET) },
        { key: 'units', value: '"5"' },
        { key: 'msg_index', value: '0' },
      ],
      decoded: { asset_id: ASSET, units: '5' },
      applied: true,
    });
  });

  it('the same typed event of a failed tx is not applied', () => {
    const e = deriveEvent(transferred, 3, txOrigin(5));
    expect(e.decoded).toEqual({ asset_id: ASSET, units: '5' });
    expect(e.applied).toBe(false);
  });

  it('a tx event that is not a typed svc event: decoded null, never applied; msg_index null without the attribute', () => {
    expect(deriveEvent(fee, 0, txOrigin(0))).toEqual({
      event_index: 0,
      type: 'tx',
      msg_index: null,
      attributes: [
        { key: 'fee', value: '10usvc' },
        { key: 'fee_payer', value: 'svc1payer' },
      ],
      decoded: null,
      applied: false,
    });
    expect(deriveEvent(message, 1, txOrigin(0))).toMatchObject({ msg_index: 2, decoded: null, applied: false });
  });

  it('a tx event keeps no mode even with a mode attribute', () => {
    const e = deriveEvent(
      {
        type: 'svc.x.v1.EventY',
        attributes: [
          { key: 'mode', value: 'EndBlock' },
          { key: 'n', value: '1' },
        ],
      },
      0,
      txOrigin(0),
    );
    expect(e).not.toHaveProperty('mode');
    expect(e).toMatchObject({ decoded: { n: 1 }, applied: true });
  });

  it('a typed svc event whose values are not JSON is not decoded, so not applied', () => {
    expect(
      deriveEvent(
        { type: 'svc.rights.v1.EventTransferred', attributes: [{ key: 'units', value: 'five' }] },
        0,
        txOrigin(0),
      ),
    ).toMatchObject({ decoded: null, applied: false });
  });

  it('block-level events: mode from the attribute, msg_index null, applied (typed or not)', () => {
    expect(deriveEvent(expired, 1, BLOCK_LEVEL)).toEqual({
      event_index: 1,
      type: 'svc.settlement.v1.EventSettlementExpired',
      msg_index: null,
      mode: 'EndBlock',
      attributes: [
        { key: 'settlement_id', value: '"7"' },
        { key: 'mode', value: 'EndBlock' },
      ],
      decoded: { settlement_id: '7' },
      applied: true,
    });
    expect(deriveEvent(plainBlockEvent, 0, BLOCK_LEVEL)).toMatchObject({
      mode: 'BeginBlock',
      decoded: null,
      applied: true,
    });
    expect(deriveEvent({ type: 'coin_spent', attributes: [] }, 0, BLOCK_LEVEL)).not.toHaveProperty('mode');
  });
});

describe('presentEvents', () => {
  const stored = JSON.stringify([fee, message, transferred]);

  it('reads the stored JSON text (or a parsed jsonb value) in chain order; event_index is the position', () => {
    const events = presentEvents(stored, txOrigin(0));
    expect(events.map((e) => [e.event_index, e.type])).toEqual([
      [0, 'tx'],
      [1, 'message'],
      [2, 'svc.rights.v1.EventTransferred'],
    ]);
    expect(presentEvents(JSON.parse(stored), txOrigin(0))).toEqual(events);
    expect(presentEvents('[]', BLOCK_LEVEL)).toEqual([]);
  });

  it('presentTx: events of a failed tx are kept (ante events included) and none is applied', () => {
    const row = {
      hash: 'AB',
      height: 2,
      tx_index: 1,
      code: 5,
      codespace: 'rights',
      raw_log: 'insufficient units',
      gas_wanted: '200000',
      gas_used: '50000',
      msgs: '[]',
      fee: '[]',
      block_time: '2025-03-01 12:00:05',
      events: stored,
    };
    const tx = presentTx(row, null);
    expect(tx.events).toHaveLength(3);
    expect(tx.events.map((e) => e.applied)).toEqual([false, false, false]);
    expect(tx.events[2].decoded).toEqual({ asset_id: ASSET, units: '5' });
    expect(JSON.parse(toJson(tx)).events[2]).toEqual({
      event_index: 2,
      type: 'svc.rights.v1.EventTransferred',
      msg_index: 0,
      attributes: [
        { key: 'asset_id', value: JSON.stringify(ASSET) },
        { key: 'units', value: '"5"' },
        { key: 'msg_index', value: '0' },
      ],
      decoded: { asset_id: ASSET, units: '5' },
      applied: false,
    });
  });
});

describe('presentActivity', () => {
  const base = { height: 12, block_time: '2024-01-02 03:04:05.5', code: 0 };

  it('a tx entry: position from the row, type and decoded from its raw event, no mode', () => {
    const out = presentActivity({ ...base, tx_index: 1, event_index: 3, tx_hash: 'AB'.repeat(32), event: transferred });
    expect(JSON.parse(toJson(out))).toEqual({
      height: 12,
      tx_index: 1,
      event_index: 3,
      tx_hash: 'AB'.repeat(32),
      block_time: '2024-01-02T03:04:05.500Z',
      type: 'svc.rights.v1.EventTransferred',
      decoded: { asset_id: ASSET, units: '5' },
    });
  });

  it('a block-level entry carries the mode of its event', () => {
    const out = presentActivity({ ...base, tx_index: -1, event_index: 0, tx_hash: null, code: null, event: expired });
    expect(out).toMatchObject({
      tx_index: -1,
      tx_hash: null,
      type: 'svc.settlement.v1.EventSettlementExpired',
      mode: 'EndBlock',
      decoded: { settlement_id: '7' },
    });
  });

  it('an entry whose event the store lacks is an error, not a guess', () => {
    expect(() =>
      presentActivity({ ...base, tx_index: 0, event_index: 9, tx_hash: 'AB'.repeat(32), event: null }),
    ).toThrow(/event not found/);
  });
});
