import express from 'express';
import {
  applyTrustProxy,
  formatTrustProxy,
  parseTrustProxy,
  type TrustProxy,
} from '../../../../app-services/http/trust-proxy';
import { loadLauncherConfig } from '../../../../launcher/config';

const VALID: [string, TrustProxy][] = [
  ['false', false],
  ['', false],
  ['1', { hops: 1 }],
  ['2', { hops: 2 }],
  ['10.0.0.0/8', { subnets: ['10.0.0.0/8'] }],
  ['loopback, 172.16.0.0/12 ,fd00::/8', { subnets: ['loopback', '172.16.0.0/12', 'fd00::/8'] }],
  ['192.0.2.7', { subnets: ['192.0.2.7'] }],
];

describe('APP_TRUST_PROXY', () => {
  test.each(VALID)('%j is %j', (raw, parsed) => {
    expect(parseTrustProxy(raw)).toEqual(parsed);
    if (parsed !== false) expect(parseTrustProxy(formatTrustProxy(parsed))).toEqual(parsed);
  });

  test.each([
    ['true', /leftmost X-Forwarded-For/],
    ['TRUE', /leftmost/],
    ['0', /from 1 to 10/],
    ['11', /from 1 to 10/],
    ['10.0.0.0/33', /prefix length outside 0–32/],
    ['fd00::/129', /prefix length outside 0–128/],
    ['proxy.internal', /not an IP address or a subnet/],
    ['10.0.0.1/8/8', /not an IP address or a subnet/],
  ])('%j is refused', (raw, why) => {
    expect(() => parseTrustProxy(raw)).toThrow(why);
  });

  test('the launcher refuses "true" naming the variable', () => {
    expect(() => loadLauncherConfig({ APP_TRUST_PROXY: 'true' }, { stdoutIsTTY: false, cwd: '/tmp' })).toThrow(
      /APP_TRUST_PROXY: must not be "true"/,
    );
    const config = loadLauncherConfig({ APP_TRUST_PROXY: '2' }, { stdoutIsTTY: false, cwd: '/tmp' });
    expect(config.app.trustProxy).toEqual({ hops: 2 });
  });

  test('Express takes the client from the right: one hop believes only the entry our proxy appended', () => {
    const app = express();
    applyTrustProxy(app, { hops: 1 });
    expect(app.get('trust proxy fn')('203.0.113.9', 0)).toBe(true);
    expect(app.get('trust proxy fn')('198.51.100.1', 1)).toBe(false);
    applyTrustProxy(app, false);
    expect(app.get('trust proxy fn')('203.0.113.9', 0)).toBe(false);
  });
});
