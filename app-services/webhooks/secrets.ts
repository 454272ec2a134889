/**
 * Webhook secrets and signatures (Standard Webhooks, https://www.standardwebhooks.com): a secret is
 * `whsec_` and the base64 of 24 random bytes; a delivery's `webhook-signature` is `v1,` and the
 * base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the secret's bytes, one
 * such signature per secret still valid (during a rotation's overlap, the new and the old),
 * space-separated, so a receiver's `standardwebhooks` verifies with either.
 *
 * At rest a secret is encrypted with AES-256-GCM under the services' webhook key
 * (WEBHOOK_SECRET_KEY, or one generated once and kept in the app schema when it is unset): the
 * signer needs the secret itself, so it cannot be kept as a hash. It is shown once, at create or
 * rotate, and never logged.
 */
import crypto from 'crypto';

const PREFIX = 'whsec_';

export function newSecret(): string {
  return PREFIX + crypto.randomBytes(24).toString('base64');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` value: one `v1,<base64>` per secret, space-separated. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((s) => `v1,${crypto.createHmac('sha256', secretBytes(s)).update(content, 'utf8').digest('base64')}`)
    .join(' ');
}

/** Encrypts and decrypts secrets under one 32-byte key: iv (12) ‖ tag (16) ‖ ciphertext. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the webhook key must be 32 bytes');
  }

  seal(secret: string): Buffer {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer): string {
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  }
}
