import * as protobuf from 'protobufjs';
import {
  MSG_TYPE_URLS,
  TYPED_EVENT_TYPES,
  contractRoot,
  decodeMessage,
  encodeMessage,
  lookupContractType,
  parseRfc3339,
  timestampToRfc3339,
  toProtoJson,
  typedEventAttributes,
} from '../../src/lib/contract';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildDescriptor, protoFiles, protoDir, outFile } = require('../../scripts/gen-contract-descriptor.js');
import * as fs from 'fs';
import * as path from 'path';

describe('proto contract', () => {
  it('every proto file compiles with protobufjs and resolves', () => {
    const files: string[] = protoFiles(protoDir);
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const file of files) {
      const root = new protobuf.Root();
      root.resolvePath = (_o, t) => (t.startsWith(protoDir) ? t : path.join(protoDir, t));
      root.loadSync(path.join(protoDir, file), { keepCase: true });
      expect(() => root.resolveAll()).not.toThrow();
    }
  });

  it('the committed descriptor is the compilation of proto/', () => {
    expect(fs.readFileSync(outFile, 'utf8')).toBe(buildDescriptor());
  });

  it('declares the messages and events the spec names', () => {
    for (const url of [
      '/svc.rights.v1.MsgTransfer',
      '/svc.asset.v1.MsgLockIssuance',
      '/svc.bridge.v1.MsgBridgeOut',
      '/ethermint.evm.v1.MsgEthereumTx',
      '/cosmos.evm.vm.v1.MsgEthereumTx',
    ]) {
      expect(MSG_TYPE_URLS).toContain(url);
    }
    for (const name of [
      'svc.asset.v1.EventAssetCreated',
      'svc.payout.v1.EventDistributed',
      'svc.bridge.v1.EventEscrowIncomeSwept',
    ]) {
      expect(TYPED_EVENT_TYPES).toContain(name);
    }
    // every module of the contract has at least one typed event
    const modules = new Set(TYPED_EVENT_TYPES.map((t) => t.split('.')[1]));
    for (const m of [
      'asset',
      'rights',
      'settlement',
      'encumbrance',
      'payout',
      'attestation',
      'delegation',
      'waterfall',
      'bridge',
      'dex',
      'evm',
    ]) {
      expect(modules).toContain(m);
    }
  });

  it('every svc Msg is served by its module Msg service', () => {
    for (const url of MSG_TYPE_URLS.filter((u) => u.startsWith('/svc.'))) {
      const pkg = url.slice(1).split('.').slice(0, 3).join('.');
      const service = contractRoot.lookupService(`${pkg}.Msg`);
      const served = service.methodsArray.map((m) => `/${pkg}.${m.requestType}`);
      expect(served).toContain(url);
    }
  });

  it('enums carry the names the spec shows', () => {
    const names = (e: string) => Object.keys(contractRoot.lookupEnum(e).values);
    expect(names('svc.settlement.v1.Status')).toEqual(
      expect.arrayContaining(['STATUS_PENDING', 'STATUS_SETTLED', 'STATUS_CANCELLED', 'STATUS_EXPIRED']),
    );
    expect(names('svc.bridge.v1.RouteStatus')).toEqual(
      expect.arrayContaining(['ROUTE_STATUS_ACTIVE', 'ROUTE_STATUS_PAUSED']),
    );
    expect(names('svc.bridge.v1.Direction')).toEqual(
      expect.arrayContaining(['DIRECTION_NATIVE_OUT', 'DIRECTION_SYNTHETIC_IN', 'DIRECTION_RIGHT_OUT']),
    );
    expect(names('svc.delegation.v1.EndReason')).toEqual(
      expect.arrayContaining(['END_REASON_EXPIRED', 'END_REASON_REVOKED', 'END_REASON_RETURNED']),
    );
  });

  it('every balance-changing event carries post-values', () => {
    const changesPositions = TYPED_EVENT_TYPES.filter((t) =>
      /Transferred|Issued|Settlement(Proposed|Settled|Cancelled|Expired)|Encumbrance|Delegat|Redeemed|Bridged|Pool|Swapped/.test(
        t,
      ),
    );
    expect(changesPositions.length).toBeGreaterThan(15);
    for (const t of changesPositions) {
      const type = lookupContractType(t)!;
      expect(type.fields.positions_after).toBeDefined();
    }
  });

  it('gives Cosmos proto-JSON: snake_case, defaults, enum names, int64 strings, RFC 3339 times', () => {
    const json = toProtoJson('svc.encumbrance.v1.EventEncumbranceCreated', {
      encumbrance_id: 7,
      kind: 'ENCUMBRANCE_KIND_PLEDGE',
      expiry: '2026-03-01T12:00:00Z',
      positions_after: [{ asset_id: 'ab', kind_id: 1, holder: 'h', units: '18446744073709551617', locked: '5' }],
    });
    expect(json.encumbrance_id).toBe('7');
    expect(json.kind).toBe('ENCUMBRANCE_KIND_PLEDGE');
    expect(json.expiry).toBe('2026-03-01T12:00:00Z');
    expect(json.holder_release_after).toBeNull();
    expect(json.income_to_beneficiary).toBe(false);
    expect((json.positions_after as { units: string }[])[0].units).toBe('18446744073709551617');
  });

  it('typed event attributes are JSON-encoded proto field values', () => {
    const attrs = typedEventAttributes('svc.asset.v1.EventAssetCreated', { asset_id: 'ab'.repeat(32), nonce: 3 });
    const byKey = Object.fromEntries(attrs.map((a) => [a.key, a.value]));
    expect(byKey.asset_id).toBe(`"${'ab'.repeat(32)}"`);
    expect(byKey.nonce).toBe('"3"');
    expect(byKey.status).toBe('"ASSET_STATUS_UNSPECIFIED"');
  });

  it('encodes and decodes messages on the wire', () => {
    const msg = {
      sender: 'a',
      recipient: 'b',
      asset_id: 'cd',
      kind_id: 2,
      units: '340282366920938463463374607431768211457',
    };
    const bytes = encodeMessage('svc.rights.v1.MsgTransfer', msg);
    expect(decodeMessage('svc.rights.v1.MsgTransfer', bytes)).toEqual(msg);
  });

  it('round-trips RFC 3339 timestamps with nanoseconds and rejects other forms', () => {
    expect(timestampToRfc3339(0, 0)).toBe('1970-01-01T00:00:00Z');
    expect(timestampToRfc3339(1767225600, 120000000)).toBe('2026-01-01T00:00:00.12Z');
    expect(parseRfc3339('2026-01-01T00:00:00.12Z')).toEqual({ seconds: 1767225600, nanos: 120000000 });
    expect(() => parseRfc3339('2026-01-01 00:00:00')).toThrow(/RFC 3339/);
    expect(() => parseRfc3339('2026-01-01T00:00:00+01:00')).toThrow(/RFC 3339/);
  });
});

describe('proto contract strictness', () => {
  it('rejects a field the type does not have, also in nested messages', () => {
    expect(() => toProtoJson('svc.rights.v1.EventTransferred', { asset: 'x' })).toThrow(/has no field asset/);
    expect(() =>
      toProtoJson('svc.rights.v1.EventTransferred', { positions_after: [{ holder: 'h', unit: '1' }] }),
    ).toThrow(/PositionAfter has no field unit/);
  });
});
