import fs from 'fs';
import os from 'os';
import path from 'path';
import { sha256Hex } from '../../../src/http/fair-share';
import { fairShareFromEnv, parseApiKeys } from '../../../src/http/fair-share-settings';

const HASH = sha256Hex('k');

describe('fair-share settings', () => {
  test('defaults: 300 units a second, 600 at once, biting while another client asked within 1 s, shedding above 500 ms of event-loop delay', () => {
    expect(fairShareFromEnv({})).toEqual({
      perClient: { perSecond: 300, burst: 600 },
      keys: [],
      shedDelayMs: 500,
      contentionMs: 1000,
    });
    expect(
      fairShareFromEnv({ RATE_LIMIT_PER_S: '0', LOAD_SHED_DELAY_MS: '0', RATE_LIMIT_CONTENTION_MS: '0' }),
    ).toMatchObject({
      perClient: false,
      shedDelayMs: 0,
      contentionMs: 0,
    });
    expect(() => fairShareFromEnv({ RATE_LIMIT_CONTENTION_MS: '-1' })).toThrow(/^RATE_LIMIT_CONTENTION_MS/);
    expect(() => fairShareFromEnv({ RATE_LIMIT_PER_S: '100', RATE_LIMIT_BURST: '10' })).toThrow(
      /^RATE_LIMIT_BURST: must be at least RATE_LIMIT_PER_S/,
    );
  });

  test('API keys come from a file of hashes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-'));
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(
      file,
      JSON.stringify([{ name: 'explorer', sha256: HASH.toUpperCase(), per_second: 50, burst: 500 }]),
    );
    expect(fairShareFromEnv({ API_KEYS_FILE: file }).keys).toEqual([
      { name: 'explorer', sha256: HASH, budget: { perSecond: 50, burst: 500 } },
    ]);
    expect(() => fairShareFromEnv({ API_KEYS_FILE: path.join(dir, 'none.json') })).toThrow(
      /^API_KEYS_FILE: cannot be read/,
    );
    fs.rmSync(dir, { recursive: true });
  });

  test.each([
    ['{}', /JSON array/],
    ['[{"name":"a b","sha256":"' + HASH + '","per_second":1,"burst":1}]', /"name"/],
    ['[{"name":"a","sha256":"the-key-itself","per_second":1,"burst":1}]', /SHA-256 of the key, not the key/],
    ['[{"name":"a","sha256":"' + HASH + '","per_second":10,"burst":5}]', /"burst"/],
    [
      '[{"name":"a","sha256":"' +
        HASH +
        '","per_second":1,"burst":1},{"name":"b","sha256":"' +
        HASH +
        '","per_second":1,"burst":1}]',
      /twice/,
    ],
  ])('a bad file is refused, naming the entry (never echoing a value): %s', (text, why) => {
    expect(() => parseApiKeys(text)).toThrow(why);
    try {
      parseApiKeys(text);
    } catch (e) {
      expect((e as Error).message).not.toContain('the-key-itself');
    }
  });
});
