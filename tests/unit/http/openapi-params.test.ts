/**
 * src/http/openapi-params.ts: path and query values checked against the document's own schemas in
 * the document's order, each refusal the parameter's `x-error-message`; the registrar applies the
 * check before a route runs. (Every real parameter's message: tests/unit/http/parameter-messages.test.ts.)
 */
import fs from 'fs';
import type { AddressInfo } from 'net';
import type { Server } from 'http';
import express, { Router } from 'express';
import { stringify } from 'yaml';
import { compileBodyChecks, compileParameterChecks } from '../../../src/http/openapi-params';
import { jsonRoutes } from '../../../rest-adapter/http/respond';
import { errorHandler } from '../../../rest-adapter/http/errors';
import { DEFAULT_OPENAPI_PATH } from '../../../rest-adapter/app';
import { APP_OPENAPI_PATH } from '../../../app-services/index';
import { appRoutes } from '../../../app-services/http/routes';
import { errorHandler as appErrorHandler } from '../../../app-services/http/errors';

const LIMIT = {
  name: 'limit',
  in: 'query',
  'x-error-message': 'limit must be 1..100',
  'x-max-digits': 3,
  schema: { type: 'integer', minimum: 1, maximum: 100 },
};

function fakeDocument(getParameters: unknown[]): string {
  return stringify({
    openapi: '3.0.3',
    info: { title: 'fake', version: '1' },
    paths: {
      '/things/{id}': {
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            'x-error-message': { invalid: 'id must be a number', maximum: 'id is too big' },
            schema: { $ref: '#/components/schemas/SmallId' },
          },
        ],
        get: { parameters: getParameters, responses: {} },
      },
    },
    components: {
      schemas: { SmallId: { type: 'integer', minimum: 0, maximum: 999 } },
      parameters: { Limit: LIMIT },
    },
  });
}

describe('compileParameterChecks', () => {
  const check = compileParameterChecks(
    fakeDocument([
      { $ref: '#/components/parameters/Limit' },
      {
        name: 'who',
        in: 'query',
        required: true,
        'x-error-message': { missing: 'who is required' },
        schema: { type: 'string' },
      },
      {
        name: 'tag',
        in: 'query',
        'x-error-message': 'tag must be a or b',
        schema: { type: 'string', enum: ['a', 'b'] },
      },
      { name: 'h', in: 'header', schema: { type: 'integer' } },
    ]),
  )('GET', '/things/{id}');
  const ok = { params: { id: '7' }, query: { who: 'x' } };

  it('accepts values the schemas accept (an integer arrives as its digits)', () => {
    expect(check({ params: { id: '007' }, query: { limit: '100', who: 'x', tag: 'a' } })).toBeUndefined();
  });

  it("answers a refusal with the parameter's x-error-message: one text, or a text per keyword", () => {
    expect(check({ ...ok, query: { ...ok.query, limit: '0' } })).toBe('limit must be 1..100');
    expect(check({ ...ok, query: { ...ok.query, tag: 'c' } })).toBe('tag must be a or b');
    expect(check({ ...ok, params: { id: 'x' } })).toBe('id must be a number');
    expect(check({ ...ok, params: { id: '1000' } })).toBe('id is too big');
  });

  it('reads an integer from base-10 digits only, at most x-max-digits of them', () => {
    for (const limit of ['1e2', ' 5', '+5', '0x10', '1.0', '', '0010'])
      expect(check({ ...ok, query: { ...ok.query, limit } })).toBe('limit must be 1..100');
    expect(check({ ...ok, query: { ...ok.query, limit: '010' } })).toBeUndefined();
  });

  it('refuses a parameter given twice or a required one missing or empty, generically unless the document words it', () => {
    expect(check({ ...ok, query: { ...ok.query, tag: ['a', 'b'] } })).toBe('query parameter tag given more than once');
    expect(check({ ...ok, query: {} })).toBe('who is required');
    expect(check({ ...ok, query: { who: '' } })).toBe('who is required');
  });

  it("checks in the document's order (the path item's parameters first); the first refusal wins", () => {
    expect(check({ params: { id: 'x' }, query: { limit: '0', tag: 'c' } })).toBe('id must be a number');
    expect(check({ params: { id: '1' }, query: { limit: '0', tag: 'c' } })).toBe('limit must be 1..100');
    expect(check({ params: { id: '1' }, query: { limit: '1', tag: 'c' } })).toBe('who is required');
  });

  it('looks only at the documented path and query parameters', () => {
    expect(check({ ...ok, query: { ...ok.query, other: ['x', 'y'], h: 'x' } })).toBeUndefined();
  });

  it('has nothing to apply to an operation the document lacks', () => {
    expect(compileParameterChecks(fakeDocument([]))('POST', '/things/{id}')({ params: { id: 'x' }, query: {} })).toBe(
      undefined,
    );
  });

  it('refuses a document whose constrained parameter has no x-error-message', () => {
    const bare = { name: 'n', in: 'query', schema: { type: 'string', pattern: '^a$' } };
    expect(() => compileParameterChecks(fakeDocument([bare]))).toThrow(
      'openapi parameter query:n of GET /things/{id} has no x-error-message',
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
    expect(body('POST', '/api/launchpad/metadata')({})).toBe('name is required');
  });

  it('has no check for an operation without a JSON body', () => {
    expect(body('GET', '/api/desk/quotes')('anything')).toBeUndefined();
  });
});

async function listen(app: express.Express): Promise<{ server: Server; base: string }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the registrar checks parameters before the route runs', () => {
  let servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

  it('/v1: a refused parameter is a 400 bad_request with its text, and the route does not run', async () => {
    const router = Router({ caseSensitive: true, strict: true });
    const checks = compileParameterChecks(fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8'));
    const ran: string[] = [];
    jsonRoutes(
      router,
      undefined,
      checks,
    )('/v1/assets/{id}', async (req) => {
      ran.push(req.params.id);
      return {} as never;
    });
    const app = express()
      .use(router)
      .use(errorHandler({ error: () => undefined }));
    const { server, base } = await listen(app);
    servers = [...servers, server];

    const bad = await fetch(`${base}/v1/assets/ABC`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'asset id must be 64 lower-case hex characters', code: 'bad_request' });
    expect(ran).toEqual([]);
  });

  it('/api: a GET and a POST alike', async () => {
    const router = Router({ caseSensitive: true, strict: true });
    const real = compileParameterChecks(fs.readFileSync(APP_OPENAPI_PATH, 'utf8'));
    // the document's POSTs take no path or query parameter: a fake check stands for one that would
    const parameters = (method: string, path: string) =>
      method === 'POST' ? () => 'x must be an integer' : real(method, path);
    const checks = { parameters, body: compileBodyChecks(fs.readFileSync(APP_OPENAPI_PATH, 'utf8')) };
    let ran = 0;
    const routes = appRoutes(router, checks);
    routes.get('/api/lender/loans', () => {
      ran++;
      return {} as never;
    });
    routes.post('/api/launchpad/metadata', () => {
      ran++;
      return {} as never;
    });
    const app = express()
      .use('/api', router)
      .use(appErrorHandler({ error: () => undefined } as never));
    const { server, base } = await listen(app);
    servers = [...servers, server];

    const twice = await fetch(`${base}/api/lender/loans?address=a&address=b`);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual({ error: 'address must be given once', code: 'bad_request' });
    const missing = await fetch(`${base}/api/lender/loans`);
    expect(await missing.json()).toEqual({
      error: 'address is required (a bech32 or 0x account address)',
      code: 'bad_request',
    });
    const post = await fetch(`${base}/api/launchpad/metadata`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await post.json()).toEqual({ error: 'x must be an integer', code: 'bad_request' });
    expect(ran).toBe(0);
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
