/**
 * The webhooks' pure parts: signatures a receiver's `standardwebhooks` verifies (both secrets
 * during a rotation), sealing of secrets, the backoff's bounds and the SSRF address rule.
 */
import { Webhook } from 'standardwebhooks';
import crypto from 'crypto';
import { backoffMs, deliveryBody } from '../../../../app-services/webhooks/dispatcher';
import { newSecret, SecretBox, signatureHeader } from '../../../../app-services/webhooks/secrets';
import { isPrivateAddress, parseTarget } from '../../../../app-services/webhooks/target';

describe('signatures', () => {
  test('standardwebhooks verifies a delivery with the secret, and with either during a rotation', () => {
    const [a, b] = [newSecret(), newSecret()];
    const body = deliveryBody({ id: 'evt1', kind: 'tx', json: '{"hash":"AB","amount":"12345678901234567890"}' });
    expect(JSON.parse(body)).toEqual({ id: 'evt1', type: 'tx', data: { hash: 'AB', amount: '12345678901234567890' } });
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'evt1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signatureHeader([b, a], 'evt1', ts, body),
    };
    expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(body.replace('AB', 'AC'), headers)).toThrow();
  });

  test('a sealed secret opens under its key only and does not hold the secret in clear', () => {
    const box = new SecretBox(crypto.randomBytes(32));
    const secret = newSecret();
    const sealed = box.seal(secret);
    expect(sealed.toString('latin1')).not.toContain(secret.slice(6));
    expect(box.open(sealed)).toBe(secret);
    expect(() => new SecretBox(crypto.randomBytes(32)).open(sealed)).toThrow();
  });
});

describe('backoff', () => {
  test('doubles per failure up to the maximum, jittered between a half and the whole', () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1000);
    expect(backoffMs(4, 1000, 60_000, () => 1)).toBe(8000);
    expect(backoffMs(40, 1000, 60_000, () => 1)).toBe(60_000);
    expect(backoffMs(40, 1000, 60_000, () => 0)).toBe(30_000);
  });
});

describe('targets', () => {
  test.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00:ec2::254',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true));

  test.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  test('only http and https URLs without credentials or fragment', () => {
    expect(parseTarget('https://example.com/hook')).toBeInstanceOf(URL);
    expect(parseTarget('ftp://example.com/')).toMatch(/http or https/);
    expect(parseTarget('http://u:p@example.com/')).toMatch(/credentials/);
    expect(parseTarget('http://example.com/#x')).toMatch(/fragment/);
    expect(parseTarget('not a url')).toMatch(/absolute/);
  });
});
