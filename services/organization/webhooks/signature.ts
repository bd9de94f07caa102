import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as the Standard Webhooks specification writes them. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` (the delivery's, the same on every
 * retry), `webhook-timestamp` (seconds) and `webhook-signature`, `v1,` and the base64 HMAC-SHA256
 * of `id.timestamp.body` keyed with the secret's bytes after `whsec_`: one such signature per secret,
 * separated by a space (the specification's way of signing with two secrets while one replaces the other).
 */
export function signedHeaders(secrets: string | readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const sign = (secret: string) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  };
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': (typeof secrets === 'string' ? [secrets] : secrets).map(sign).join(' ') };
}

