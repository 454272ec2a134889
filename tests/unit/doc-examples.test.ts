/**
 * Every HTTP, GraphQL, subscription and stream example of README.md and docs/*.md is marked:
 * runnable (tests/integration/doc-examples.test.ts runs it on npm start's default world) or
 * not run, with the reason. A new unmarked example fails here. The extractor itself
 * (tests/harness/doc-examples.ts) is checked on small texts.
 */
import { parse } from 'graphql';
import {
  fencedBlocks,
  isExampleBlock,
  parseCurl,
  readDocExamples,
  shellWords,
  splitGraphql,
} from '../harness/doc-examples';

describe('the docs examples', () => {
  const examples = readDocExamples();

  it('are each marked runnable or not run with a reason, with unique names, and parse', () => {
    expect(examples.problems).toEqual([]);
    expect(examples.runnable.length).toBeGreaterThan(0);
  });

  it('hold GraphQL that parses, and curl commands on the served paths', () => {
    for (const e of examples.runnable)
      for (const op of e.operations) {
        if (op.kind === 'graphql') expect(() => parse(op.query)).not.toThrow();
        else expect(op.path).toMatch(/^\/(v1\/|api\/|graphql|openapi\.yaml|health|ready|metrics)/);
      }
  });
});

describe('the doc example extractor', () => {
  it('finds fenced blocks with the marker before them, indented ones too', () => {
    const md = [
      'text',
      '<!-- example: one -->',
      '```sh',
      "curl -s 'http://localhost:3000/v1/status'",
      '```',
      '1. item',
      '   <!-- not-run: needs a key -->',
      '   ```graphql',
      '   { a }',
      '   ```',
      '```',
      'output',
      '```',
    ].join('\n');
    const blocks = fencedBlocks(md, 'x.md');
    expect(blocks.map((b) => [b.line, b.lang, b.marker, b.text])).toEqual([
      [3, 'sh', 'example: one', "curl -s 'http://localhost:3000/v1/status'"],
      [8, 'graphql', 'not-run: needs a key', '{ a }'],
      [11, '', undefined, 'output'],
    ]);
    expect(blocks.map(isExampleBlock)).toEqual([true, true, false]);
    const shell = (text: string) => isExampleBlock({ file: 'x.md', line: 1, lang: 'sh', text });
    expect(shell('CHAIN_RPC_URL=http://my-chain:26657 docker compose up')).toBe(true);
    expect(shell('npm start   # http://127.0.0.1:3000')).toBe(false);
    expect(isExampleBlock({ file: 'x.md', line: 1, lang: '', text: 'REST API http://127.0.0.1:3000/v1' })).toBe(false);
  });

  it('parses curl: method, path and query without the origin, headers, body, streams', () => {
    expect(parseCurl("curl -s 'http://localhost:3000/v1/txs?limit=5&method=x' | jq .")).toMatchObject({
      method: 'GET',
      path: '/v1/txs?limit=5&method=x',
      stream: false,
    });
    const post = parseCurl(
      `curl -s -X POST localhost:3000/api/desk/rfq -H 'content-type: application/json' -d '{"side":"sell"}'`,
    );
    expect(post).toMatchObject({
      method: 'POST',
      path: '/api/desk/rfq',
      headers: { 'content-type': 'application/json' },
      body: '{"side":"sell"}',
    });
    expect(parseCurl('curl --json \'{"a":1}\' http://127.0.0.1:3000/api/launchpad/metadata')).toMatchObject({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(parseCurl("curl -N 'http://localhost:3000/v1/stream?account=svc1x'").stream).toBe(true);
    expect(() => parseCurl('curl -s http://localhost:3000/v1/accounts/$ADDR')).toThrow(/shell variable/);
    expect(() => parseCurl('curl -u me http://localhost:3000/v1/status')).toThrow(/not understood/);
    expect(shellWords('curl "a b" c\\ d # comment')).toEqual(['curl', 'a b', 'c d']);
  });

  it('splits a GraphQL block into its operations', () => {
    expect(splitGraphql('{ a { b } }\n{ c(x: "}") }\nsubscription {\n  d { e }\n}')).toEqual([
      '{ a { b } }',
      '{ c(x: "}") }',
      'subscription {\n  d { e }\n}',
    ]);
    expect(() => splitGraphql('{ a')).toThrow(/unbalanced/);
  });
});
