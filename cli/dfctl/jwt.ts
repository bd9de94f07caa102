/** The claims dfctl reads from its own access token (it never verifies it: the server does). */
export interface TokenClaims {
  sub?: string;
  exp?: number;
  wid?: number;
  cid?: number;
}

/** The payload of a JWT, or an empty object for anything that is not one. */
export function claimsOf(token: string): TokenClaims {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    const json = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return json && typeof json === 'object' ? (json as TokenClaims) : {};
  } catch {
    return {};
  }
}

/**
 * Seconds until the token expires (negative once expired); Infinity when it has no `exp`. Read from
 * the token itself because the sign-in answer's `expiresIn` is the server's local time without a zone.
 */
export function secondsLeft(token: string, nowMs = Date.now()): number {
  const exp = claimsOf(token).exp;
  return typeof exp === 'number' ? exp - nowMs / 1000 : Infinity;
}
