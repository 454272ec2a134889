import { createHash } from 'node:crypto';
import * as vm from 'node:vm';
import { getAddress } from 'ethers';
import { fromBech32, toBech32 as cosmjsToBech32 } from '@cosmjs/encoding';
import {
  addressHash,
  canonicalAddress,
  decodeBech32Address,
  deriveAddress,
  isEvmAddress,
  legacyModuleAddress,
  moduleAccountAddress,
  parseAccountAddress,
  parseEvmAddress,
  toBech32,
  toChecksumAddress,
  toEvmAddress,
  tryParseAccountAddress,
} from '../../../src/lib/address';
import { bytesToHex } from '../../../src/lib/bytes';
import { InvalidInputError } from '../../../src/lib/errors';

const sha256 = (...parts: (string | Uint8Array)[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** n deterministic 20-byte keys */
function keys(n: number): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => new Uint8Array(sha256(`key-${i}`).subarray(0, 20)));
}

const KEY_HEX = '8ba1f109551bd432803012645ac136ddd64dba72';
const KEY_EIP55 = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const KEY_BECH32 = 'svc13wslzz24r02r9qpszfj94sfkmhtymwnj7qda23';

function flipCaseOfFirstLetter(addr: string): string {
  const i = [...addr].findIndex((c, idx) => idx >= 2 && /[a-fA-F]/.test(c));
  const c = addr[i];
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return addr.slice(0, i) + flipped + addr.slice(i + 1);
}

describe('EIP-55', () => {
  // Vectors from the EIP-55 specification.
  const EIP55_VECTORS = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('reproduces the EIP-55 specification vectors', () => {
    for (const v of EIP55_VECTORS) {
      expect(toChecksumAddress(v.toLowerCase())).toBe(v);
      expect(toChecksumAddress(v.slice(2).toUpperCase())).toBe(v);
    }
  });

  it('agrees with ethers.getAddress on 300 keys', () => {
    for (const k of keys(300)) {
      expect(toChecksumAddress(k)).toBe(getAddress('0x' + Buffer.from(k).toString('hex')));
    }
  });

  it('parseEvmAddress accepts all-lower, all-upper and valid checksums', () => {
    expect(bytesToHex(parseEvmAddress('0x' + KEY_HEX))).toBe(KEY_HEX);
    expect(bytesToHex(parseEvmAddress('0x' + KEY_HEX.toUpperCase()))).toBe(KEY_HEX);
    expect(bytesToHex(parseEvmAddress(KEY_EIP55))).toBe(KEY_HEX);
  });

  it('rejects a wrong checksum (one letter with its case flipped)', () => {
    const bad = flipCaseOfFirstLetter(KEY_EIP55);
    expect(bad.toLowerCase()).toBe(KEY_EIP55.toLowerCase());
    expect(bad).not.toBe(KEY_EIP55);
    expect(() => parseEvmAddress(bad)).toThrow(/checksum/);
    expect(isEvmAddress(bad)).toBe(false);
    // ethers agrees that it is invalid
    expect(() => getAddress(bad)).toThrow();
  });

  it('rejects wrong shapes', () => {
    for (const s of [
      '0x' + KEY_HEX.slice(2),
      '0x' + KEY_HEX + '00',
      KEY_HEX,
      '0X' + KEY_HEX,
      '0x' + KEY_HEX.slice(1) + 'g',
      ` 0x${KEY_HEX}`,
    ]) {
      expect(() => parseEvmAddress(s)).toThrow(InvalidInputError);
    }
  });
});

describe('bech32 <-> 0x', () => {
  it('pins a literal pair', () => {
    expect(toBech32('0x' + KEY_HEX, 'svc')).toBe(KEY_BECH32);
    expect(toEvmAddress(KEY_BECH32)).toBe(KEY_EIP55);
  });

  it('round-trips bech32 -> 0x -> bech32 and agrees with @cosmjs/encoding', () => {
    for (const k of keys(50)) {
      const b = cosmjsToBech32('svc', k); // independent bech32 implementation
      expect(toBech32(k)).toBe(b);
      const evm = toEvmAddress(b);
      expect(evm).toBe(getAddress('0x' + Buffer.from(k).toString('hex')));
      expect(toBech32(evm)).toBe(b);
      expect(parseAccountAddress(evm).bech32).toBe(b);
    }
  });

  it('uses the given prefix', () => {
    const b = toBech32('0x' + KEY_HEX, 'cosmos');
    expect(fromBech32(b).prefix).toBe('cosmos');
    expect(toEvmAddress(b, 'cosmos')).toBe(KEY_EIP55);
    expect(() => toEvmAddress(b)).toThrow(/prefix/);
  });
});

describe('parseAccountAddress', () => {
  it('returns canonical bech32, EIP-55 and bytes for every accepted spelling', () => {
    const expected = { bech32: KEY_BECH32, evm: KEY_EIP55 };
    for (const s of [KEY_BECH32, KEY_BECH32.toUpperCase(), KEY_EIP55, '0x' + KEY_HEX, '0x' + KEY_HEX.toUpperCase()]) {
      const a = parseAccountAddress(s, 'svc');
      expect({ bech32: a.bech32, evm: a.evm }).toEqual(expected);
      expect(bytesToHex(a.bytes)).toBe(KEY_HEX);
    }
    expect(canonicalAddress(KEY_BECH32.toUpperCase())).toBe(KEY_BECH32);
  });

  it('accepts a 32-byte module account with evm null', () => {
    const bytes = moduleAccountAddress('bridge', Uint8Array.of(1));
    const b = cosmjsToBech32('svc', bytes);
    const a = parseAccountAddress(b);
    expect(a.bech32).toBe(b);
    expect(a.evm).toBeNull();
    expect(a.bytes).toHaveLength(32);
    expect(() => toEvmAddress(b)).toThrow(/20-byte/);
  });

  it('rejects a wrong prefix, mixed-case bech32, bad checksum and odd lengths', () => {
    const cosmos = cosmjsToBech32('cosmos', keys(1)[0]);
    expect(() => parseAccountAddress(cosmos, 'svc')).toThrow(/prefix/);
    const mixed = KEY_BECH32.slice(0, 10) + KEY_BECH32.slice(10).toUpperCase();
    expect(() => parseAccountAddress(mixed)).toThrow(InvalidInputError);
    const lastChar = KEY_BECH32[KEY_BECH32.length - 1];
    const badSum = KEY_BECH32.slice(0, -1) + (lastChar === 'q' ? 'p' : 'q');
    expect(() => parseAccountAddress(badSum)).toThrow(InvalidInputError);
    for (const len of [0, 19, 21, 31, 33]) {
      const odd = cosmjsToBech32('svc', new Uint8Array(len).fill(7));
      expect(() => parseAccountAddress(odd)).toThrow(InvalidInputError);
    }
  });

  it('rejects wrong EIP-55, whitespace, empty and non-strings', () => {
    expect(() => parseAccountAddress(flipCaseOfFirstLetter(KEY_EIP55))).toThrow(/checksum/);
    expect(() => parseAccountAddress(` ${KEY_BECH32}`)).toThrow(InvalidInputError);
    expect(() => parseAccountAddress(`${KEY_BECH32}\n`)).toThrow(InvalidInputError);
    expect(() => parseAccountAddress('')).toThrow(InvalidInputError);
    expect(() => parseAccountAddress(42 as unknown as string)).toThrow(InvalidInputError);
    expect(tryParseAccountAddress('nonsense')).toBeNull();
    expect(tryParseAccountAddress(KEY_BECH32)?.evm).toBe(KEY_EIP55);
  });

  it('decodeBech32Address reports the prefix when none is required', () => {
    const d = decodeBech32Address(cosmjsToBech32('osmo', keys(1)[0]));
    expect(d.hrp).toBe('osmo');
    expect(d.bytes).toHaveLength(20);
  });
});

describe('module accounts', () => {
  it('legacyModuleAddress matches the well-known Cosmos Hub module addresses', () => {
    // authtypes.NewModuleAddress(...) on cosmoshub
    expect(toBech32(legacyModuleAddress('fee_collector'), 'cosmos')).toBe(
      'cosmos17xpfvakm2amg962yls6f84z3kell8c5lserqta',
    );
    expect(toBech32(legacyModuleAddress('gov'), 'cosmos')).toBe('cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn');
    expect(bytesToHex(legacyModuleAddress('distribution'))).toBe(
      sha256('distribution').subarray(0, 20).toString('hex'),
    );
  });

  it('addressHash is sha256(sha256(typ) || key)', () => {
    const key = Uint8Array.of(9, 8, 7);
    expect(bytesToHex(addressHash('module', key))).toBe(sha256(sha256('module'), key).toString('hex'));
  });

  it('moduleAccountAddress without keys is ADR-028 Hash("module", name)', () => {
    const a = moduleAccountAddress('bridge');
    expect(a).toHaveLength(32);
    expect(bytesToHex(a)).toBe(sha256(sha256('module'), 'bridge').toString('hex'));
    expect(bytesToHex(a)).toBe('ee3b329e110cbaefba4728a38a83df98bf317ed3f057a5c9bb85363e900ec0b2');
  });

  it('moduleAccountAddress with keys follows address.Module: name || 0x00 || k0, then Derive', () => {
    const k0 = Uint8Array.of(1, 2, 3);
    const k1 = Buffer.from('second');
    const first = sha256(sha256('module'), Buffer.concat([Buffer.from('group'), Buffer.from([0]), k0]));
    expect(bytesToHex(moduleAccountAddress('group', k0))).toBe(first.toString('hex'));
    expect(bytesToHex(moduleAccountAddress('group', k0))).toBe(
      '8baf69869df0e1f0de6ab06522ff514d9564dc44263f131c73a0e8399aa71461',
    );
    const second = sha256(sha256(first), k1); // Derive(addr, k) = Hash(string(addr), k)
    expect(bytesToHex(moduleAccountAddress('group', k0, k1))).toBe(second.toString('hex'));
    expect(bytesToHex(deriveAddress(first, k1))).toBe(second.toString('hex'));
  });

  it('the 0x00 separator keeps ("ab","c") and ("a","bc") apart', () => {
    const x = moduleAccountAddress('ab', Buffer.from('c'));
    const y = moduleAccountAddress('a', Buffer.from('bc'));
    expect(bytesToHex(x)).not.toBe(bytesToHex(y));
  });

  it('rejects an empty module name', () => {
    expect(() => moduleAccountAddress('')).toThrow(InvalidInputError);
    expect(() => legacyModuleAddress('')).toThrow(InvalidInputError);
  });
});

describe('cross-realm bytes (mapping sandbox)', () => {
  it('accepts a Uint8Array created in another VM context', () => {
    const foreign = vm.runInNewContext(`new Uint8Array([${Array.from(Buffer.from(KEY_HEX, 'hex')).join(',')}])`);
    expect(foreign instanceof Uint8Array).toBe(false); // really another realm
    expect(toBech32(foreign)).toBe(KEY_BECH32);
    expect(toEvmAddress(foreign)).toBe(KEY_EIP55);
    expect(toChecksumAddress(foreign)).toBe(KEY_EIP55);
  });
});
