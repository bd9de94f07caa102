import { errors as joseErrors, type CryptoKey, type JWTHeaderParameters } from 'jose';
import type { SigningKeys } from './keys.js';

// What the platform's JWTs (access tokens, OAuth client tokens) share: the length limit, id claims, key choice.

/** Real tokens are well under 1 KiB; anything far larger is refused before any parsing or crypto. */
export const MAX_TOKEN_LENGTH = 8192;

/** A claim holding a positive integer id. */
export const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Every algorithm some verification key takes. */
export const algorithmsOf = (keys: SigningKeys): string[] => [...new Set([...keys.verificationKeys.values()].map((k) => k.alg))];

/** The verification key a token's header names by `kid`, accepted only under that key's own algorithm. */
export function keyResolver(keys: SigningKeys): (protectedHeader: JWTHeaderParameters) => CryptoKey {
  return (protectedHeader) => {
    const entry = typeof protectedHeader.kid === 'string' ? keys.verificationKeys.get(protectedHeader.kid) : undefined;
    if (!entry) throw new joseErrors.JWKSNoMatchingKey('No verification key for this "kid"');
    // Each key verifies only under its own algorithm, even when several algorithms are accepted overall.
    if (protectedHeader.alg !== entry.alg) throw new joseErrors.JOSEAlgNotAllowed('"alg" does not match the key');
    return entry.key;
  };
}
