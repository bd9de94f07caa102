/**
 * An enrolled host's token: `dfh_<hostId>_<secret>`, the host id a UUID and the secret 32 random bytes
 * (base64url). The host id in the token is what the agent announces itself as, so the token alone is
 * the agent's identity; the service keeps only the token's SHA-256.
 */
const HOST_TOKEN = /^dfh_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export const HOST_TOKEN_PREFIX = 'dfh_';

export function hostToken(hostId: string, secret: string): string {
  return `${HOST_TOKEN_PREFIX}${hostId}_${secret}`;
}

/** The host id a well-formed enrolment token names; `null` for anything else. */
export function hostIdOfToken(token: string): string | null {
  return HOST_TOKEN.exec(token)?.[1] ?? null;
}

/** What may be shown of a token later: its kind and the start of its host id. */
export function hostTokenPrefix(hostId: string): string {
  return `${HOST_TOKEN_PREFIX}${hostId.slice(0, 8)}`;
}
