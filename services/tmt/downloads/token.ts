import { errors as joseErrors, jwtVerify, SignJWT, type CryptoKey, type JWTHeaderParameters } from 'jose';
import type { SigningKeys } from '#shared/auth/index.js';

/** The `typ` of download tokens, so neither an access token nor any other JWT of ours can pass as one. */
export const DOWNLOAD_TOKEN_TYPE = 'tmt-dl+jwt';
const AUDIENCE = 'tmt-download';
const MAX_TOKEN_LENGTH = 2048;

/** What a download link grants: one object of one kind, in one company and workspace, until `expiresAt`. */
export interface DownloadGrant {
  kind: string;
  id: string;
  companyId: number;
  workspaceId: number;
  /** Who made the link. */
  userId: number;
}

/**
 * Signs a grant with the platform's signing key (EdDSA/ES256, `kid`), so every replica verifies it
 * with the keys it already has and a rotation keeps older links valid until they expire. `exp` is
 * rounded up to the next whole second, and `expiresAt` is exactly when verification starts failing.
 */
export async function signDownloadToken(keys: SigningKeys, issuer: string, grant: DownloadGrant, now: Date, ttlMs: number): Promise<{ token: string; expiresAt: Date }> {
  const exp = Math.ceil((now.getTime() + ttlMs) / 1000);
  const header: JWTHeaderParameters = { alg: keys.alg, kid: keys.kid, typ: DOWNLOAD_TOKEN_TYPE };
  const token = await new SignJWT({ knd: grant.kind, oid: grant.id, cid: grant.companyId, wid: grant.workspaceId })
    .setProtectedHeader(header)
    .setSubject(String(grant.userId))
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(exp)
    .sign(keys.privateKey);
  return { token, expiresAt: new Date(exp * 1000) };
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** The grant of a valid, unexpired token signed by one of our keys; null for anything else. */
export async function verifyDownloadToken(keys: SigningKeys, issuer: string, token: string, now: Date): Promise<DownloadGrant | null> {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  const resolveKey = (header: JWTHeaderParameters): CryptoKey => {
    const entry = typeof header.kid === 'string' ? keys.verificationKeys.get(header.kid) : undefined;
    if (!entry) throw new joseErrors.JWKSNoMatchingKey('No verification key for this "kid"');
    if (header.alg !== entry.alg) throw new joseErrors.JOSEAlgNotAllowed('"alg" does not match the key');
    return entry.key;
  };
  try {
    const { payload } = await jwtVerify(token, resolveKey, {
      algorithms: [...new Set([...keys.verificationKeys.values()].map((k) => k.alg))],
      issuer,
      audience: AUDIENCE,
      typ: DOWNLOAD_TOKEN_TYPE,
      requiredClaims: ['exp', 'sub'],
      currentDate: now,
    });
    const { knd, oid, cid, wid, sub } = payload;
    const userId = typeof sub === 'string' && /^[1-9]\d{0,15}$/.test(sub) ? Number(sub) : null;
    if (typeof knd !== 'string' || typeof oid !== 'string' || !isId(cid) || !isId(wid) || userId === null) return null;
    return { kind: knd, id: oid, companyId: cid, workspaceId: wid, userId };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
