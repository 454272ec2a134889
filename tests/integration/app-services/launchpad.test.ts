/**
 * The launchpad over real HTTP and real PostgreSQL: POST /api/launchpad/metadata and
 * GET /api/launchpad/metadata/{meta_hash}, every rule and every error case, each answer
 * checked against app-services/openapi.yaml.
 */
import { createHash } from 'crypto';
import zlib from 'zlib';
import { KeySecret } from '../../../app-services/keys';
import { crc32 } from '../../../app-services/launchpad/png';
import { DOCUMENT_NOTICE } from '../../../app-services/launchpad/presenter';
import { LAUNCH_PLANS, metadataDocument } from '../../../devnet/scenario/flows/launch';
import { startForwardingProxy } from '../../harness/forwarding-proxy';
import { startAppApi, type AppApi } from './api';

const PATH = '/api/launchpad/metadata';
const DOC = {
  name: 'Harbour Test Commons',
  symbol: 'HTC',
  description: 'A community test asset. Testnet only; it has no value.',
  template: 'community',
};

/** A 1×1 RGBA PNG. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const idat = zlib.deflateSync(Buffer.from([0, 255, 0, 0, 255]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sha256Hex = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

let api: AppApi;

beforeAll(async () => {
  // the rate limit has its own test below; here it stays out of the way
  api = await startAppApi({
    devnetDocuments: LAUNCH_PLANS.map((p) => metadataDocument(p).doc),
    settings: { launchpadRateLimit: 1000 },
  });
});

afterAll(async () => {
  await api?.close();
});

describe('storing and reading documents', () => {
  test('a document is stored in canonical form; meta_hash is the SHA-256 of it; GET answers it with the notice', async () => {
    const posted = await api.postJson(PATH, DOC);
    expect(posted.status).toBe(200);
    const canonical = `{"description":${JSON.stringify(DOC.description)},"name":"${DOC.name}","symbol":"HTC","template":"community"}`;
    expect(posted.body).toEqual({ meta_hash: sha256Hex(canonical) });
    const got = await api.request('GET', `${PATH}/${posted.body.meta_hash}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      meta_hash: posted.body.meta_hash,
      ...DOC,
      logo: null,
      notice: DOCUMENT_NOTICE,
      asset_id: null, // no indexed asset carries it (this test has no indexer)
    });
    expect(got.body.notice).toMatch(/community-launched/i);
    expect(got.body.notice).toMatch(/verified by no one/);
    expect(got.body.notice).toMatch(/testnet/);
  });

  test('key order, surrounding white space and Unicode normalisation do not change the hash; a repeat POST stores nothing new', async () => {
    const composed = await api.postJson(PATH, { ...DOC, name: 'Caf\u00e9 Commons' });
    const variants = [
      { template: 'community', description: `  ${DOC.description}\n`, symbol: ' HTC ', name: 'Cafe\u0301 Commons' },
      { symbol: 'HTC', name: '\tCaf\u00e9 Commons ', template: 'community', description: DOC.description },
    ];
    for (const v of variants) expect((await api.postJson(PATH, v)).body.meta_hash).toBe(composed.body.meta_hash);
    const { rows } = await api.db.pool.query(
      `SELECT count(*)::int AS n FROM ${api.db.schema}.launchpad_documents WHERE meta_hash = $1`,
      [composed.body.meta_hash],
    );
    expect(rows[0].n).toBe(1);
    expect((await api.request('GET', `${PATH}/${composed.body.meta_hash}`)).body.name).toBe('Caf\u00e9 Commons');
  });

  test('a PNG logo is kept and answered in standard base64, whichever base64 spelling was sent', async () => {
    const png = tinyPng();
    const standard = png.toString('base64');
    const urlSafe = png.toString('base64url');
    const a = await api.postJson(PATH, { ...DOC, symbol: 'LOGO', logo: standard });
    const b = await api.postJson(PATH, { ...DOC, symbol: 'LOGO', logo: urlSafe });
    expect(a.status).toBe(200);
    expect(b.body.meta_hash).toBe(a.body.meta_hash);
    const got = await api.request('GET', `${PATH}/${a.body.meta_hash}`);
    expect(got.body.logo).toBe(standard);
    const withoutLogo = await api.postJson(PATH, { ...DOC, symbol: 'LOGO', logo: null });
    expect(withoutLogo.body.meta_hash).not.toBe(a.body.meta_hash);
  });

  test('every devnet launch document is registered at start under the meta_hash its asset carries', async () => {
    for (const plan of LAUNCH_PLANS) {
      const { doc, hash } = metadataDocument(plan);
      const got = await api.request('GET', `${PATH}/${hash}`);
      expect([plan.key, got.status, got.body.symbol, got.body.name]).toEqual([plan.key, 200, doc.symbol, doc.name]);
    }
  });
});

describe('refusals', () => {
  test.each([
    ['name', { name: 'Airdrop Club' }],
    ['symbol', { symbol: 'APY' }],
    ['description', { description: 'Hold it and earn guaranteed returns every month.' }],
    ['description', { description: 'A store of value that will increase in value.' }],
  ])('%s promising rewards or value is refused with a message naming the rule', async (field, change) => {
    const r = await api.postJson(PATH, { ...DOC, ...change });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('bad_request');
    expect(r.body.error).toContain(field);
    expect(r.body.error).toMatch(
      /refuses names or copy that promise rewards, airdrops, returns, yield, profit or value/,
    );
  });

  test('disclaimers pass', async () => {
    for (const description of [
      'This token has no value.',
      'No returns, no rewards: a testnet experiment.',
      'Not an investment; it carries no monetary value.',
    ]) {
      expect([description, (await api.postJson(PATH, { ...DOC, description })).status]).toEqual([description, 200]);
    }
  });
});

describe('bad input: 400 or 413 with {error, code}, never 5xx', () => {
  test.each([
    ['a missing field', { name: 'X', symbol: 'X', template: 'community' }, /description/],
    ['a mistyped field', { ...DOC, symbol: 5 }, /symbol/],
    ['an unknown field', { ...DOC, website: 'https://example.org' }, /website/],
    ['an over-long name', { ...DOC, name: 'n'.repeat(65) }, /name.*64/],
    ['an over-long description', { ...DOC, description: 'd'.repeat(2001) }, /description.*2000/],
    ['a lower-case symbol', { ...DOC, symbol: 'htc' }, /symbol/],
    ['an unknown template', { ...DOC, template: 'meme' }, /template/],
    ['a logo that is not base64', { ...DOC, logo: 'not base64!' }, /logo/],
    ['a logo that is not a PNG', { ...DOC, logo: Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64') }, /logo/],
    ['a control character in the name', { ...DOC, name: 'Bell\u0007' }, /name/],
    ['an array', [DOC], /object/],
    ['a string', 'hello', /object/],
  ])('%s', async (_what, body, message) => {
    const r = await api.postJson(PATH, body);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('bad_request');
    expect(r.body.error).toMatch(message);
  });

  test('a body that is not JSON, or not sent as JSON', async () => {
    const broken = await api.request('POST', PATH, {
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect([broken.status, broken.body.code]).toEqual([400, 'bad_request']);
    expect(broken.body.error).toMatch(/JSON/);
    const text = await api.request('POST', PATH, {
      body: JSON.stringify(DOC),
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.status, text.body.code]).toEqual([400, 'bad_request']);
    const none = await api.request('POST', PATH);
    expect(none.status).toBe(400);
  });

  test('a body over 512 KiB answers 413', async () => {
    const r = await api.postJson(PATH, { ...DOC, logo: 'A'.repeat(600 * 1024) });
    expect([r.status, r.body.code]).toEqual([413, 'payload_too_large']);
  });

  test('a malformed meta_hash is 400, an unknown one 404', async () => {
    for (const bad of ['abc', 'A'.repeat(64), 'g'.repeat(64), `${'a'.repeat(64)}0`]) {
      const r = await api.request('GET', `${PATH}/${bad}`);
      expect([bad, r.status, r.body.code]).toEqual([bad, 400, 'bad_request']);
    }
    const unknown = await api.request('GET', `${PATH}/${'0'.repeat(64)}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
  });

  test('wrong methods answer 405 with Allow; unknown paths 404', async () => {
    const get = await api.request('GET', PATH);
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    const post = await api.request('POST', `${PATH}/${'0'.repeat(64)}`, {
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET']);
    const unknown = await api.request('GET', '/api/launchpad/nothing');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
  });

  test('/api/openapi.yaml is the contract of these answers', async () => {
    const r = await api.request('GET', '/api/openapi.yaml');
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/^openapi: 3\.0\.3/m);
    expect(r.text).toContain('/api/launchpad/metadata/{meta_hash}:');
  });
});

describe('rate limit, start-up and faults', () => {
  test('POSTs past the limit per client address answer 429 with Retry-After; another address still passes', async () => {
    const limited = await startAppApi({ settings: { launchpadRateLimit: 3 }, trustProxy: { hops: 1 } });
    try {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      for (let i = 0; i < 3; i++) expect((await limited.postJson(PATH, DOC, from('203.0.113.7'))).status).toBe(200);
      const refused = await limited.postJson(PATH, DOC, from('203.0.113.7'));
      expect([refused.status, refused.body.code]).toEqual([429, 'too_many_requests']);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(600);
      expect((await limited.postJson(PATH, DOC, from('203.0.113.8'))).status).toBe(200);
      expect((await limited.request('GET', `${PATH}/${'0'.repeat(64)}`, { headers: from('203.0.113.7') })).status).toBe(
        404,
      ); // reads are not limited
    } finally {
      await limited.close();
    }
  });

  test('attack: a client behind our proxy writes its own X-Forwarded-For entries to dodge the limit; the limit counts the address the proxy saw', async () => {
    const limited = await startAppApi({ settings: { launchpadRateLimit: 3 }, trustProxy: { hops: 1 } });
    const proxy = await startForwardingProxy(limited.url);
    try {
      const spoofed = (i: number) => ({
        'content-type': 'application/json',
        'x-forwarded-for': `198.51.100.${i}, 203.0.113.${i}`,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await fetch(`${proxy.url}${PATH}`, {
          method: 'POST',
          headers: spoofed(i),
          body: JSON.stringify(DOC),
        });
        statuses.push(r.status);
        if (r.status === 429) expect(await r.json()).toMatchObject({ code: 'too_many_requests' });
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    } finally {
      await proxy.close();
      await limited.close();
    }
  });

  test('before its schema is migrated the service answers 503 unavailable', async () => {
    const early = await startAppApi({ start: false });
    try {
      const r = await early.postJson(PATH, DOC);
      expect([r.status, r.body.code]).toEqual([503, 'unavailable']);
    } finally {
      await early.close();
    }
  });

  test("one key given as both the lender's and the desk's stops the start with a message naming the variable, not the key", async () => {
    const hex = 'ab'.repeat(32);
    const same = new KeySecret(hex, 'LENDER_KEY');
    const twice = startAppApi({ settings: { keys: { lender: same, desk: new KeySecret(hex, 'DESK_KEY') } } });
    await expect(twice).rejects.toThrow(/DESK_KEY: is the same key as LENDER_KEY/);
    await expect(twice).rejects.not.toThrow(new RegExp(hex));
  });

  test('a database fault answers 500 internal with no SQL or detail, and is logged', async () => {
    const broken = await startAppApi();
    try {
      await broken.db.pool.query(`DROP TABLE ${broken.db.schema}.launchpad_documents`);
      const r = await broken.request('GET', `${PATH}/${'1'.repeat(64)}`);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: 'internal error', code: 'internal' });
      expect(broken.errors.join('\n')).toMatch(/launchpad_documents/);
    } finally {
      await broken.close();
    }
  });
});
