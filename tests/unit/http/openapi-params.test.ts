/**
 * src/http/openapi-params.ts: path and query values checked against the document's own schemas
 * after the hand parsers, and a parser made laxer than its schema caught by that check.
 */
import fs from 'fs';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import express, { Router } from 'express';
import { stringify } from 'yaml';
import { answerAfterParsers, compileBodyChecks, compileParameterChecks } from '../../../src/http/openapi-params';
import { InvalidInputError, NotFoundError } from '../../../src/lib/errors';
import { jsonRoutes } from '../../../rest-adapter/http/respond';
import { errorHandler } from '../../../rest-adapter/http/errors';
import { DEFAULT_OPENAPI_PATH } from '../../../rest-adapter/app';
import { APP_OPENAPI_PATH } from '../../../app-services/index';
import { appRoutes } from '../../../app-services/http/routes';
import { errorHandler as appErrorHandler } from '../../../app-services/http/errors';

const FAKE_DOCUMENT = stringify({
  openapi: '3.0.3',
  info: { title: 'fake', version: '1' },
  paths: {
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { $ref: '#/components/schemas/ThreeDigits' } }],
      get: {
        parameters: [
          { $ref: '#/components/parameters/Limit' },
          { name: 'h', in: 'header', schema: { type: 'integer' } },
        ],
        responses: {},
      },
    },
  },
  components: {
    schemas: { ThreeDigits: { type: 'string', pattern: '^[0-9]{3}$' } },
    parameters: { Limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } } },
  },
});

describe('compileParameterChecks', () => {
  const check = compileParameterChecks(FAKE_DOCUMENT)('GET', '/things/{id}');

  it('accepts values the schemas accept (a query integer arrives as a string)', () => {
    expect(check({ params: { id: '123' }, query: { limit: '100' } })).toBeUndefined();
  });

  it('names the parameter and the schema rule it breaks (path-level and $ref parameters)', () => {
    expect(check({ params: { id: '12' }, query: {} })).toBe('path parameter id must match pattern "^[0-9]{3}$"');
    expect(check({ params: { id: '123' }, query: { limit: '0' } })).toBe('query parameter limit must be >= 1');
    expect(check({ params: { id: '123' }, query: { limit: 'x' } })).toBe('query parameter limit must be integer');
  });

  it('looks only at the documented path and query parameters present', () => {
    expect(check({ params: { id: '123' }, query: { other: 'anything', h: 'x' } })).toBeUndefined();
    expect(check({ params: { id: '123' }, query: {} })).toBeUndefined();
  });

  it('has nothing to apply to an operation the document lacks', () => {
    expect(compileParameterChecks(FAKE_DOCUMENT)('POST', '/things/{id}')({ params: { id: '' }, query: {} })).toBe(
      undefined,
    );
  });

  it('compiles every operation of both real documents and applies their schemas', () => {
    const v1 = compileParameterChecks(fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8'));
    expect(v1('GET', '/v1/txs')({ params: {}, query: { limit: '101' } })).toBe('query parameter limit must be <= 100');
    expect(v1('GET', '/v1/assets/{id}')({ params: { id: 'A'.repeat(64) }, query: {} })).toBe(
      'path parameter id must match pattern "^[0-9a-f]{64}$"',
    );
    const api = compileParameterChecks(fs.readFileSync(APP_OPENAPI_PATH, 'utf8'));
    expect(api('GET', '/api/launchpad/metadata/{meta_hash}')({ params: { meta_hash: 'ab' }, query: {} })).toBe(
      'path parameter meta_hash must match pattern "^[0-9a-f]{64}$"',
    );
  });
});

describe('compileBodyChecks', () => {
  const body = compileBodyChecks(fs.readFileSync(APP_OPENAPI_PATH, 'utf8'));
  const rfq = body('POST', '/api/desk/rfq');
  const good = { address: 'svc1x', symbol: 'GOLD', kind: -1, side: 'buy', units: '5' };

  it("applies the operation's requestBody schema, naming the field and the rule", () => {
    expect(rfq(good)).toBeUndefined();
    expect(rfq({ ...good, kind: -2 })).toBe('field kind must be >= -1');
    expect(rfq({ ...good, units: 5 })).toBe('field units must be string');
    expect(rfq({ ...good, extra: 1 })).toBe('request body must NOT have additional properties (extra)');
    expect(body('POST', '/api/launchpad/metadata')({})).toBe("request body must have required property 'name'");
  });

  it('has no check for an operation without a JSON body', () => {
    expect(body('GET', '/api/desk/quotes')('anything')).toBeUndefined();
  });
});

describe('answerAfterParsers', () => {
  const refuse = (message: string) => new InvalidInputError(message);

  it('answers as the route does when the schema has nothing to say', async () => {
    await expect(answerAfterParsers(undefined, () => 7, refuse)).resolves.toBe(7);
  });

  it("keeps the hand parser's own refusal", async () => {
    const parser = () => {
      throw new InvalidInputError('id must be exact');
    };
    await expect(answerAfterParsers('path parameter id …', parser, refuse)).rejects.toThrow('id must be exact');
  });

  it("refuses with the schema's message what the parser let through, whatever the route answered", async () => {
    await expect(answerAfterParsers('path parameter id bad', () => 7, refuse)).rejects.toThrow('path parameter id bad');
    const missing = () => {
      throw new NotFoundError('asset');
    };
    await expect(answerAfterParsers('path parameter id bad', missing, refuse)).rejects.toMatchObject({
      code: 'bad_request',
    });
  });
});

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('a route whose hand parser is laxer than the document', () => {
  let servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

  it('/v1: the document refuses what the parser accepts, with 400 bad_request naming the parameter', async () => {
    const router = Router({ caseSensitive: true, strict: true });
    const checks = compileParameterChecks(fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8'));
    let answered = 0;
    jsonRoutes(
      router,
      undefined,
      checks,
    )('/v1/assets/{id}', async (req) => {
      if (req.params.id === 'strict') throw new InvalidInputError('asset id must be 64 lower-case hex characters');
      answered++; // a lax parser: any id goes
      throw new NotFoundError('asset');
    });
    const app = express()
      .use(router)
      .use(errorHandler({ error: () => undefined }));
    const { server, base } = await listen(app);
    servers = [...servers, server];

    const lax = await fetch(`${base}/v1/assets/ABC`);
    expect(lax.status).toBe(400);
    expect(await lax.json()).toEqual({
      error: 'path parameter id must match pattern "^[0-9a-f]{64}$"',
      code: 'bad_request',
    });
    expect(answered).toBe(1);

    const strict = await fetch(`${base}/v1/assets/strict`);
    expect(await strict.json()).toEqual({
      error: 'asset id must be 64 lower-case hex characters',
      code: 'bad_request',
    });

    const good = await fetch(`${base}/v1/assets/${'a'.repeat(64)}`);
    expect(good.status).toBe(404);
  });

  it('/api: a GET is refused after its lax parser, a POST before its route acts', async () => {
    const router = Router({ caseSensitive: true, strict: true });
    const real = compileParameterChecks(fs.readFileSync(APP_OPENAPI_PATH, 'utf8'));
    // the document's POSTs take no path or query parameter: a fake check stands for one that would
    const parameters = (method: string, path: string) =>
      method === 'POST' ? () => 'query parameter x must be integer' : real(method, path);
    const checks = { parameters, body: compileBodyChecks(fs.readFileSync(APP_OPENAPI_PATH, 'utf8')) };
    let acted = 0;
    const routes = appRoutes(router, checks);
    routes.get('/api/launchpad/metadata/{meta_hash}', () => {
      throw new NotFoundError('metadata'); // a lax parser: any meta_hash goes
    });
    routes.post('/api/launchpad/metadata', () => {
      acted++;
      throw new NotFoundError('never');
    });
    const app = express()
      .use('/api', router)
      .use(appErrorHandler({ error: () => undefined } as never));
    const { server, base } = await listen(app);
    servers = [...servers, server];

    const lax = await fetch(`${base}/api/launchpad/metadata/XYZ`);
    expect(lax.status).toBe(400);
    expect(await lax.json()).toEqual({
      error: 'path parameter meta_hash must match pattern "^[0-9a-f]{64}$"',
      code: 'bad_request',
    });
    const post = await fetch(`${base}/api/launchpad/metadata`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await post.json()).toEqual({ error: 'query parameter x must be integer', code: 'bad_request' });
    expect(acted).toBe(0);
  });

  it('/api: a POST body its lax parser accepts is refused by the document before the route acts', async () => {
    const router = Router({ caseSensitive: true, strict: true });
    const text = fs.readFileSync(APP_OPENAPI_PATH, 'utf8');
    let acted = 0;
    appRoutes(router, { parameters: compileParameterChecks(text), body: compileBodyChecks(text) }).post(
      '/api/desk/rfq',
      (_req, checkBody) => {
        checkBody(); // a lax parser: any body goes
        acted++;
        return {} as never;
      },
    );
    const app = express()
      .use('/api', router)
      .use(appErrorHandler({ error: () => undefined } as never));
    const { server, base } = await listen(app);
    servers = [...servers, server];
    const post = await fetch(`${base}/api/desk/rfq`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: 'svc1x', symbol: 'GOLD', kind: 1.5, side: 'buy', units: '5' }),
    });
    expect(post.status).toBe(400);
    expect(await post.json()).toEqual({ error: 'field kind must be integer', code: 'bad_request' });
    expect(acted).toBe(0);
  });
});
