/** rest-adapter configuration from the environment: defaults and clear errors. */
import { ConfigError } from '../../../src/lib/errors';
import { loadRestConfig } from '../../../rest-adapter/config';

describe('loadRestConfig', () => {
  it('defaults around DATABASE_URL', () => {
    const c = loadRestConfig({ DATABASE_URL: 'postgres://u:p@db:5433/x' });
    expect(c).toMatchObject({
      port: 3001,
      host: '0.0.0.0',
      schema: 'svc',
      statementTimeoutMs: 5000,
      dbWaitMs: 1000,
      hrp: 'svc',
      gasDenom: 'usvc',
    });
    expect(c.database).toEqual({
      connectionString: 'postgres://u:p@db:5433/x',
      max: 10,
      connectionTimeoutMillis: 10_000, // a new connection's setup; DB_WAIT_MS is the request's wait
    });
    expect(c.responseCache).toEqual({ maxBytes: 64 * 1024 * 1024, pollMs: 200 });
    expect(c.renderCache).toEqual({ maxBytes: 64 * 1024 * 1024 });
  });

  it('sizes the render cache, or turns it off with RENDER_CACHE_MB=0', () => {
    expect(loadRestConfig({ DB_HOST: 'h', RENDER_CACHE_MB: '16' }).renderCache).toEqual({ maxBytes: 16 * 1024 * 1024 });
    expect(loadRestConfig({ DB_HOST: 'h', RENDER_CACHE_MB: '0' }).renderCache).toBe(false);
  });

  it('sizes the response cache, or turns it off with RESPONSE_CACHE_MB=0', () => {
    expect(
      loadRestConfig({ DB_HOST: 'h', RESPONSE_CACHE_MB: '8', RESPONSE_CACHE_POLL_MS: '50' }).responseCache,
    ).toEqual({ maxBytes: 8 * 1024 * 1024, pollMs: 50 });
    expect(loadRestConfig({ DB_HOST: 'h', RESPONSE_CACHE_MB: '0' }).responseCache).toBe(false);
  });

  it("reads the SubQuery node's DB_* variables", () => {
    const c = loadRestConfig({
      DB_HOST: 'pg',
      DB_PORT: '6543',
      DB_USER: 'me',
      DB_PASS: 'pw',
      DB_DATABASE: 'idx',
      DB_SCHEMA: 'svc_test',
      PORT: '8080',
      DB_POOL_MAX: '3',
      SVC_HRP: 'abc',
    });
    expect(c.database).toEqual({
      host: 'pg',
      port: 6543,
      user: 'me',
      password: 'pw',
      database: 'idx',
      max: 3,
      connectionTimeoutMillis: 10_000, // a new connection's setup; DB_WAIT_MS is the request's wait
    });
    expect(c).toMatchObject({ port: 8080, schema: 'svc_test', hrp: 'abc' });
  });

  it.each([
    [{}, 'DB_HOST'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DB_HOST: 'h', DB_PORT: 'x' }, 'DB_PORT'],
    [{ DB_HOST: 'h', PORT: '70000' }, 'PORT'],
    [{ DB_HOST: 'h', DB_POOL_MAX: '0' }, 'DB_POOL_MAX'],
    [{ DB_HOST: 'h', STATEMENT_TIMEOUT_MS: '-5' }, 'STATEMENT_TIMEOUT_MS'],
    [{ DB_HOST: 'h', DB_SCHEMA: 'x'.repeat(64) }, 'DB_SCHEMA'],
    [{ DB_HOST: 'h', RESPONSE_CACHE_MB: 'lots' }, 'RESPONSE_CACHE_MB'],
    [{ DB_HOST: 'h', RESPONSE_CACHE_POLL_MS: '0' }, 'RESPONSE_CACHE_POLL_MS'],
    [{ DB_HOST: 'h', RENDER_CACHE_MB: '-1' }, 'RENDER_CACHE_MB'],
    [{ DB_HOST: 'h', SVC_HRP: 'Bad!' }, 'SVC_HRP'],
  ])('names the variable at fault: %j', (env, variable) => {
    let error: unknown;
    try {
      loadRestConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
  });
});
