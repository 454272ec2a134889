import express from 'express';
import {
  applyTrustProxy,
  clientAddressOf,
  clientKeyOf,
  formatTrustProxy,
  parseTrustProxy,
  trustProxyFromEnv,
  type TrustProxy,
} from '../../../src/http/trust-proxy';
import { loadLauncherConfig } from '../../../src/runtime/config';

const VALID: [string, TrustProxy][] = [
  ['false', false],
  ['', false],
  ['1', { hops: 1 }],
  ['2', { hops: 2 }],
  ['10.0.0.0/8', { subnets: ['10.0.0.0/8'] }],
  ['loopback, 172.16.0.0/12 ,fd00::/8', { subnets: ['loopback', '172.16.0.0/12', 'fd00::/8'] }],
  ['192.0.2.7', { subnets: ['192.0.2.7'] }],
];

describe('parseTrustProxy', () => {
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
    expect(config.trustProxy).toEqual({ hops: 2 });
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

describe('TRUST_PROXY, the one client-address rule', () => {
  test('is read under its name, and under APP_TRUST_PROXY as an alias', () => {
    expect(trustProxyFromEnv({})).toBe(false);
    expect(trustProxyFromEnv({ TRUST_PROXY: '1' })).toEqual({ hops: 1 });
    expect(trustProxyFromEnv({ APP_TRUST_PROXY: '10.0.0.0/8' })).toEqual({ subnets: ['10.0.0.0/8'] });
    expect(trustProxyFromEnv({ TRUST_PROXY: '2', APP_TRUST_PROXY: '2' })).toEqual({ hops: 2 });
    expect(() => trustProxyFromEnv({ TRUST_PROXY: '1', APP_TRUST_PROXY: '2' })).toThrow(
      /TRUST_PROXY: APP_TRUST_PROXY \(its older name\) is also set, to another rule/,
    );
    expect(() => trustProxyFromEnv({ TRUST_PROXY: 'true' })).toThrow(/^TRUST_PROXY: must not be "true"/);
  });

  test('a websocket upgrade gets the address req.ip would get', () => {
    const upgrade = (peer: string, xff?: string) =>
      ({
        socket: { remoteAddress: peer },
        connection: { remoteAddress: peer },
        headers: xff ? { 'x-forwarded-for': xff } : {},
      }) as never;
    // attack: a client writes its own X-Forwarded-For; without proxies it is not believed
    expect(clientAddressOf(upgrade('127.0.0.2', '203.0.113.9'), false)).toBe('127.0.0.2');
    // one proxy of ours: the entry it appended (the rightmost), never the client's own to its left
    expect(clientAddressOf(upgrade('10.0.0.5', '203.0.113.9, 198.51.100.7'), { hops: 1 })).toBe('198.51.100.7');
    expect(clientAddressOf(upgrade('10.0.0.5', '198.51.100.7'), { subnets: ['10.0.0.0/8'] })).toBe('198.51.100.7');
    expect(clientAddressOf(upgrade('192.0.2.1', '198.51.100.7'), { subnets: ['10.0.0.0/8'] })).toBe('192.0.2.1');
  });

  test('a client is counted by its address; an IPv6 client by its /64', () => {
    expect(clientKeyOf('127.0.0.2')).toBe('127.0.0.2');
    expect(clientKeyOf('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf(undefined)).toBe('unknown');
  });
});
