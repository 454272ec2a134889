import { CHAIN_CONFIG_ENV, DEFAULT_CHAIN_CONFIG, loadChainConfig } from '../../../src/lib/config';
import { ConfigError } from '../../../src/lib/errors';

function expectConfigError(env: Record<string, string>, variable: string): void {
  let err: unknown;
  try {
    loadChainConfig(env);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as ConfigError).variable).toBe(variable);
  expect((err as ConfigError).message).toContain(variable);
}

describe('chain config', () => {
  it('has the documented devnet defaults', () => {
    expect(DEFAULT_CHAIN_CONFIG).toEqual({
      hrp: 'svc',
      gasDenom: 'usvc',
      stableDenom: 'uusdc',
      chainId: 'svc-devnet-1',
      evmChainId: 9000,
    });
    expect(Object.isFrozen(DEFAULT_CHAIN_CONFIG)).toBe(true);
  });

  it('returns the defaults for an empty environment, and treats empty strings as unset', () => {
    expect(loadChainConfig({})).toEqual(DEFAULT_CHAIN_CONFIG);
    expect(loadChainConfig({ SVC_HRP: '', SVC_EVM_CHAIN_ID: '' })).toEqual(DEFAULT_CHAIN_CONFIG);
  });

  it('reads every variable', () => {
    const cfg = loadChainConfig({
      SVC_HRP: 'test',
      SVC_GAS_DENOM: 'atest',
      SVC_STABLE_DENOM: 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2',
      SVC_CHAIN_ID: 'test_9000-1',
      SVC_EVM_CHAIN_ID: '262144',
      UNRELATED: 'x',
    });
    expect(cfg).toEqual({
      hrp: 'test',
      gasDenom: 'atest',
      stableDenom: 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2',
      chainId: 'test_9000-1',
      evmChainId: 262144,
    });
  });

  it('names the offending variable', () => {
    expectConfigError({ SVC_HRP: 'Svc' }, CHAIN_CONFIG_ENV.hrp);
    expectConfigError({ SVC_HRP: 'svc1' }, 'SVC_HRP');
    expectConfigError({ SVC_HRP: 'a'.repeat(21) }, 'SVC_HRP');
    expectConfigError({ SVC_GAS_DENOM: 'us' }, 'SVC_GAS_DENOM'); // too short
    expectConfigError({ SVC_GAS_DENOM: '1usvc' }, 'SVC_GAS_DENOM'); // must start with a letter
    expectConfigError({ SVC_STABLE_DENOM: 'u usdc' }, 'SVC_STABLE_DENOM');
    expectConfigError({ SVC_STABLE_DENOM: 'u' + 'x'.repeat(128) }, 'SVC_STABLE_DENOM');
    expectConfigError({ SVC_CHAIN_ID: 'x'.repeat(51) }, 'SVC_CHAIN_ID');
    expectConfigError({ SVC_CHAIN_ID: 'svc devnet' }, 'SVC_CHAIN_ID');
    expectConfigError({ SVC_EVM_CHAIN_ID: '0' }, 'SVC_EVM_CHAIN_ID');
    expectConfigError({ SVC_EVM_CHAIN_ID: '-1' }, 'SVC_EVM_CHAIN_ID');
    expectConfigError({ SVC_EVM_CHAIN_ID: '9000.5' }, 'SVC_EVM_CHAIN_ID');
    expectConfigError({ SVC_EVM_CHAIN_ID: '0x2328' }, 'SVC_EVM_CHAIN_ID');
    expectConfigError({ SVC_EVM_CHAIN_ID: '9007199254740993' }, 'SVC_EVM_CHAIN_ID');
  });

  it('accepts boundary values', () => {
    expect(loadChainConfig({ SVC_HRP: 'a'.repeat(20) }).hrp).toBe('a'.repeat(20));
    expect(loadChainConfig({ SVC_CHAIN_ID: 'x'.repeat(50) }).chainId).toHaveLength(50);
    expect(loadChainConfig({ SVC_GAS_DENOM: 'abc' }).gasDenom).toBe('abc');
    expect(loadChainConfig({ SVC_EVM_CHAIN_ID: '9007199254740991' }).evmChainId).toBe(Number.MAX_SAFE_INTEGER);
  });
});
