import { createHash } from 'node:crypto';
import { concat, dataSlice, getAddress, keccak256, toUtf8Bytes } from 'ethers';
import {
  assetIdPreimage,
  bundleTokenAddress,
  bundleTokenPreimage,
  deriveAssetId,
  isAssetId,
  isKindId,
  parseAssetId,
  rightTokenAddress,
  rightTokenPreimage,
} from '../../../src/lib/ids';
import { toBech32 } from '../../../src/lib/address';
import { InvalidInputError } from '../../../src/lib/errors';

const ISSUER_HEX = '8ba1f109551bd432803012645ac136ddd64dba72';
const ISSUER_BECH32 = 'svc13wslzz24r02r9qpszfj94sfkmhtymwnj7qda23';
const ISSUER_BYTES = Buffer.from(ISSUER_HEX, 'hex');

/** Independent asset id: node:crypto SHA-256 over Buffer-built preimage. */
function refAssetId(issuer: Buffer, n: bigint): string {
  const nb = Buffer.alloc(8);
  nb.writeBigUInt64BE(n);
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from('svc/asset/v1', 'utf8'), issuer, nb]))
    .digest('hex');
}

/** Independent right-token address: ethers keccak256 + getAddress. */
function refRightToken(assetId: string, kind: number): string {
  const kb = Buffer.alloc(4);
  kb.writeUInt32BE(kind);
  return getAddress(dataSlice(keccak256(concat([toUtf8Bytes('svc/right/v1'), '0x' + assetId, kb])), 12));
}

function refBundleToken(assetId: string): string {
  return getAddress(dataSlice(keccak256(concat([toUtf8Bytes('svc/bundle/v1'), '0x' + assetId])), 12));
}

// Frozen encodings: computed once by this implementation and cross-checked by the
// independent reference functions above. A change here is a breaking change.
const PINNED_ASSET_IDS: [bigint, string][] = [
  [0n, 'bec4b97ab8f03458fd86f8bb4eee45b87a0854c5ec0d674005d1236c1721c642'],
  [1n, '5034de5d1692f554dc3c28d21e314ef04e6ca35509aabf2377a7cd5e890cf962'],
  [2n ** 64n - 1n, '889ff1ddd7995ecb12decd6ce2c067dc81f22151b30703fbb2cfb6de3a933492'],
];
const ASSET0 = PINNED_ASSET_IDS[0][1];
const PINNED_RIGHT_TOKENS: [number, string][] = [
  [0, '0xebc88BDd817723495d83881aF1B70F1f56EDBB18'],
  [1, '0x699D0D088A7f20F2F7e26a639629dCaBA0E00D22'],
  [2, '0xAcDF96513CFd6B1a61d2b40Af22B69D5674A1702'],
  [0xffffffff, '0x98C0fbbb7fE7dCf93aA9139da07C21beA1eb4Da5'],
];
const PINNED_BUNDLE = '0x8f27902528B5090738DE647033C7Cb480e8fB9A0';

describe('deriveAssetId', () => {
  it('matches the pinned vectors', () => {
    for (const [n, id] of PINNED_ASSET_IDS) expect(deriveAssetId(ISSUER_BECH32, n)).toBe(id);
  });

  it('matches an independent node:crypto computation for many n', () => {
    for (const n of [0n, 1n, 2n, 255n, 256n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n]) {
      expect(deriveAssetId(ISSUER_BECH32, n)).toBe(refAssetId(ISSUER_BYTES, n));
    }
  });

  it('gives the same id for bech32 (either case), 0x and raw bytes of the issuer', () => {
    const id = deriveAssetId(ISSUER_BECH32, 7n);
    expect(deriveAssetId(ISSUER_BECH32.toUpperCase(), 7n)).toBe(id);
    expect(deriveAssetId('0x' + ISSUER_HEX, 7n)).toBe(id);
    expect(deriveAssetId(ISSUER_BYTES, 7n)).toBe(id);
    expect(deriveAssetId(Array.from(ISSUER_BYTES), 7n)).toBe(id);
    expect(deriveAssetId(toBech32(ISSUER_BYTES, 'test'), 7n, 'test')).toBe(id);
  });

  it('builds the documented 40-byte preimage', () => {
    const pre = Buffer.from(assetIdPreimage(ISSUER_BECH32, 0x0102030405060708n));
    expect(pre).toHaveLength(40);
    expect(pre.subarray(0, 12).toString('utf8')).toBe('svc/asset/v1');
    expect(pre.subarray(12, 32).toString('hex')).toBe(ISSUER_HEX);
    expect(pre.subarray(32).toString('hex')).toBe('0102030405060708');
  });

  it('produces lower-case 64-hex ids, distinct per issuer and n', () => {
    const ids = new Set<string>();
    for (let n = 0n; n < 20n; n++) ids.add(deriveAssetId(ISSUER_BECH32, n));
    ids.add(deriveAssetId(Buffer.alloc(20, 1), 0n));
    expect(ids.size).toBe(21);
    for (const id of ids) expect(isAssetId(id)).toBe(true);
  });

  it('rejects n out of uint64 range, non-bigint n, bad issuers', () => {
    expect(() => deriveAssetId(ISSUER_BECH32, -1n)).toThrow(InvalidInputError);
    expect(() => deriveAssetId(ISSUER_BECH32, 2n ** 64n)).toThrow(InvalidInputError);
    expect(() => deriveAssetId(ISSUER_BECH32, 1 as unknown as bigint)).toThrow(InvalidInputError);
    expect(() => deriveAssetId(toBech32(ISSUER_BYTES, 'cosmos'), 0n)).toThrow(InvalidInputError); // wrong prefix
    expect(() => deriveAssetId(Buffer.alloc(32, 1), 0n)).toThrow(/20-byte/); // module account
    expect(() => deriveAssetId(toBech32(Buffer.alloc(32, 1)), 0n)).toThrow(/20-byte/);
    expect(() => deriveAssetId('svc1notanaddress', 0n)).toThrow(InvalidInputError);
  });
});

describe('rightTokenAddress', () => {
  it('matches the pinned vectors', () => {
    for (const [k, addr] of PINNED_RIGHT_TOKENS) expect(rightTokenAddress(ASSET0, k)).toBe(addr);
  });

  it('matches ethers keccak256/getAddress over many assets and kinds', () => {
    for (const [, id] of PINNED_ASSET_IDS) {
      for (const k of [0, 1, 2, 3, 10, 255, 256, 65536, 0x7fffffff, 0xffffffff]) {
        expect(rightTokenAddress(id, k)).toBe(refRightToken(id, k));
      }
    }
  });

  it('builds the documented 48-byte preimage', () => {
    const pre = Buffer.from(rightTokenPreimage(ASSET0, 0x01020304));
    expect(pre).toHaveLength(48);
    expect(pre.subarray(0, 12).toString('utf8')).toBe('svc/right/v1');
    expect(pre.subarray(12, 44).toString('hex')).toBe(ASSET0);
    expect(pre.subarray(44).toString('hex')).toBe('01020304');
  });

  it('rejects bad kind ids and asset ids', () => {
    for (const k of [-1, 2 ** 32, 1.5, NaN, Infinity])
      expect(() => rightTokenAddress(ASSET0, k)).toThrow(InvalidInputError);
    expect(() => rightTokenAddress(ASSET0.toUpperCase(), 0)).toThrow(InvalidInputError);
    expect(() => rightTokenAddress('0x' + ASSET0, 0)).toThrow(InvalidInputError);
    expect(() => rightTokenAddress(ASSET0.slice(1), 0)).toThrow(InvalidInputError);
  });
});

describe('bundleTokenAddress', () => {
  it('matches the pinned vector and ethers', () => {
    expect(bundleTokenAddress(ASSET0)).toBe(PINNED_BUNDLE);
    for (const [, id] of PINNED_ASSET_IDS) expect(bundleTokenAddress(id)).toBe(refBundleToken(id));
  });

  it('builds the documented 45-byte preimage', () => {
    const pre = Buffer.from(bundleTokenPreimage(ASSET0));
    expect(pre).toHaveLength(45);
    expect(pre.subarray(0, 13).toString('utf8')).toBe('svc/bundle/v1');
    expect(pre.subarray(13).toString('hex')).toBe(ASSET0);
  });

  it('is domain-separated from every right token of the asset', () => {
    const b = bundleTokenAddress(ASSET0);
    for (let k = 0; k < 64; k++) expect(rightTokenAddress(ASSET0, k)).not.toBe(b);
  });

  it('rejects a malformed asset id', () => {
    expect(() => bundleTokenAddress('xyz')).toThrow(InvalidInputError);
  });
});

describe('isAssetId / parseAssetId / isKindId', () => {
  it('accepts exactly 64 lower-case hex', () => {
    expect(isAssetId(ASSET0)).toBe(true);
    expect(isAssetId(ASSET0.toUpperCase())).toBe(false);
    expect(isAssetId(ASSET0 + '0')).toBe(false);
    expect(isAssetId(ASSET0.slice(2))).toBe(false);
    expect(isAssetId('0x' + ASSET0.slice(2))).toBe(false);
    expect(isAssetId('g'.repeat(64))).toBe(false);
    expect(isAssetId(undefined)).toBe(false);
    expect(isAssetId(`${ASSET0}\n`)).toBe(false);
  });
  it('parseAssetId throws InvalidInputError (bad_request)', () => {
    expect(parseAssetId(ASSET0)).toBe(ASSET0);
    try {
      parseAssetId('nope');
      throw new Error('unreachable');
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidInputError);
      expect((e as InvalidInputError).code).toBe('bad_request');
    }
  });
  it('isKindId is the uint32 range', () => {
    expect(isKindId(0)).toBe(true);
    expect(isKindId(0xffffffff)).toBe(true);
    expect(isKindId(-1)).toBe(false);
    expect(isKindId(2 ** 32)).toBe(false);
    expect(isKindId('1')).toBe(false);
  });
});
