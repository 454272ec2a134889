import fs from 'fs';
import type { IncomingMessage } from 'http';
import { DEFAULT_OPENAPI_PATH } from '../../../rest-adapter/app';
import { restCosts } from '../../../rest-adapter/http/costs';

const costOf = restCosts(fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8'));
const cost = (url: string) => costOf({ url } as IncomingMessage);

describe('what a /v1 request costs', () => {
  test.each([
    ['/v1/txs/' + 'ab'.repeat(32), 1],
    ['/v1/status', 1],
    ['/openapi.yaml', 1],
    ['/v1/stream?account=x', 1],
    ['/v1/blocks', 3], // default page of 20
    ['/v1/blocks?limit=100', 11],
    ['/v1/assets/' + 'cd'.repeat(32) + '/kinds/0/holders?limit=50', 6],
    ['/v1/txs', 5], // whole txs: 1 + 20 / 5
    ['/v1/txs?limit=100&cursor=abc', 21],
    ['/v1/stats', 2.2], // 6 latest txs by default
    ['/v1/blocks?limit=abc', 3], // refused by the route; estimated as the default
    ['/v1/blocks?limit=100000', 3], // refused too (a 400 is charged 1 at most)
  ])('%s costs %d', (url, expected) => {
    expect(cost(url)).toBeCloseTo(expected);
  });

  test('every list of the document is priced as a list (a new one without a change in costs.ts)', () => {
    const lists = [...fs.readFileSync(DEFAULT_OPENAPI_PATH, 'utf8').matchAll(/^ {2}(\/v1\/[^:]+):/gm)].map((m) => m[1]);
    expect(lists.length).toBeGreaterThan(20);
    const paged = lists.filter((p) => cost(p.replace(/\{[^}]+\}/g, 'x')) > 1);
    expect(paged).toEqual(expect.arrayContaining(['/v1/txs', '/v1/blocks', '/v1/settlements', '/v1/bridge/transfers']));
  });
});
