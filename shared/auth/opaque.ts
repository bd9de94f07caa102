import { createHash, randomBytes } from 'node:crypto';

/** A random secret of `bytes` bytes (at least 16), base64url: refresh tokens, reset tokens, API keys. */
export function randomToken(bytes = 32): string {
  // Below 128 bits a stored-hash lookup could be brute-forced; such a short secret is a caller's mistake.
  if (!Number.isInteger(bytes) || bytes < 16 || bytes > 1024) {
    throw new RangeError('randomToken needs an integer byte count from 16 to 1024');
  }
  return randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 hex of an opaque token, the form kept in storage. A plain fast hash is enough here (unlike
 * passwords): the tokens are high-entropy random values, so there is nothing to guess offline.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
