import * as lib from '../../../src/lib';

describe('src/lib/index re-exports', () => {
  it('exposes every module through one entry point', () => {
    const expected = [
      'deriveAssetId',
      'rightTokenAddress',
      'bundleTokenAddress',
      'isAssetId',
      'parseAssetId',
      'parseAccountAddress',
      'toEvmAddress',
      'toBech32',
      'toChecksumAddress',
      'moduleAccountAddress',
      'legacyModuleAddress',
      'parseAmount',
      'formatAmount',
      'sumAmounts',
      'minAmount',
      'maxAmount',
      'toBaseUnits',
      'fromBaseUnits',
      'distribute',
      'pendingIncome',
      'carryAmount',
      'residue',
      'decodeTypedEvent',
      'encodeTypedEvent',
      'encodeCursor',
      'decodeCursor',
      'loadChainConfig',
    ];
    for (const name of expected) expect(typeof (lib as Record<string, unknown>)[name]).toBe('function');
    expect(lib.INDEX_SCALE).toBe(10n ** 18n);
    expect(lib.DEFAULT_CHAIN_CONFIG.hrp).toBe('svc');
    expect(new lib.InvalidInputError('x').code).toBe('bad_request');
    expect(new lib.NotFoundError('x').code).toBe('not_found');
    expect(new lib.ConfigError('V', 'x').variable).toBe('V');
  });

  it('composes: an asset id derived from a 0x issuer yields stable token addresses', () => {
    const issuer = lib.parseAccountAddress('0x8ba1f109551bD432803012645Ac136ddd64DBA72');
    const id = lib.deriveAssetId(issuer.bech32, 0n);
    expect(id).toBe('bec4b97ab8f03458fd86f8bb4eee45b87a0854c5ec0d674005d1236c1721c642');
    expect(lib.bundleTokenAddress(id)).toBe('0x8f27902528B5090738DE647033C7Cb480e8fB9A0');
  });
});
