import { randomUUID } from 'node:crypto';
import {
  errors as joseErrors,
  jwtVerify,
  SignJWT,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyOptions,
} from 'jose';
import { AppError } from '../errors.js';
import { algorithmsOf, isId, keyResolver, MAX_TOKEN_LENGTH } from './jwt-common.js';
import type { SigningKeys } from './keys.js';

// OAuth client tokens and data-plane tokens are signed with the same keys; their modules are re-exported here.
export { CLIENT_TOKEN_AUDIENCE, CLIENT_TOKEN_TYPE, createClientTokenService, looksLikeClientToken, type ClientTokenClaims, type ClientTokenInput, type ClientTokenService, type IssuedClientToken } from './client-tokens.js';
export { DATA_PLANE_AUDIENCE, DATA_PLANE_MAX_TTL_SECONDS, DATA_PLANE_TOKEN_TYPE, issueDataPlaneToken, type DataPlaneTokenClaims } from './data-plane-tokens.js';

/** The `typ` header of access tokens (RFC 9068), so no other JWT of ours can pass as one. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

export interface AccessTokenInput {
  userId: number;
  companyId: number;
  workspaceId?: number | null;
  roles?: string[];
  /** Refresh-token family id, so logout and reuse detection can find the family from the access token. */
  sessionId?: string;
}

export interface IssuedAccessToken {
  token: string;
  jti: string;
  /** The exact instant the token stops being accepted (its `exp`). */
  expiresAt: Date;
  /** `expiresAt` as the server's local time without zone (docs/api-conventions.md, "Identity"). */
  expiresIn: string;
}

/** Verified claims; frozen, because the same object is handed out again for a cached token. */
export interface AccessTokenClaims {
  readonly userId: number;
  readonly companyId: number;
  readonly workspaceId: number | null;
  readonly jti: string;
  /** Issue time in seconds since the epoch, e.g. to refuse tokens issued before a password change. */
  readonly iat: number;
  /** Issue time in milliseconds (the `iatms` claim), so a revocation can fall between two tokens of one second. */
  readonly issuedAtMs: number;
  /** Expiry in seconds since the epoch, e.g. for keeping a logged-out `jti` blocklisted until then. */
  readonly exp: number;
  readonly sid?: string;
  readonly roles?: readonly string[];
}

export interface TokenService {
  issueAccessToken(claims: AccessTokenInput): Promise<IssuedAccessToken>;
  verifyAccessToken(token: string): Promise<AccessTokenClaims>;
  /**
   * The claims of a token this service has verified before and that has not expired, at once; undefined
   * otherwise (then `verifyAccessToken` decides, and says why a token fails).
   */
  verifiedNow?(token: string): AccessTokenClaims | undefined;
}

export interface TokenServiceOptions {
  keys: SigningKeys;
  issuer: string;
  accessTtlMs: number;
  now?: () => Date;
  /** How many verified tokens to remember (least recently used go first); 0 turns the cache off. */
  verifiedCacheSize?: number;
}

const DEFAULT_VERIFIED_CACHE_SIZE = 10_000;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Formats a date as the process's local wall-clock time, `YYYY-MM-DDTHH:mm:ss.SSS`, without a zone. */
export function formatLocalIso(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid date');
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  );
}

/** Creates the access-token issuer and verifier over one set of signing keys. */
export function createTokenService(options: TokenServiceOptions): TokenService {
  const { keys, issuer, accessTtlMs, now, verifiedCacheSize = DEFAULT_VERIFIED_CACHE_SIZE } = options;
  // `exp` has whole-second precision; a shorter lifetime could yield a token that is born expired.
  if (!Number.isFinite(accessTtlMs) || accessTtlMs < 1000) {
    throw new RangeError('accessTtlMs must be at least 1000');
  }
  if (!Number.isSafeInteger(verifiedCacheSize) || verifiedCacheSize < 0) {
    throw new RangeError('verifiedCacheSize must be a non-negative integer');
  }
  const header: JWTHeaderParameters = { alg: keys.alg, kid: keys.kid, typ: ACCESS_TOKEN_TYPE };
  const baseVerifyOptions: JWTVerifyOptions = {
    algorithms: algorithmsOf(keys),
    issuer,
    typ: ACCESS_TOKEN_TYPE,
    requiredClaims: ['iss', 'iat', 'exp', 'sub', 'jti'],
  };

  const resolveKey = keyResolver(keys);

  const invalid = (cause: unknown): AppError => new AppError('TOKEN_INVALID', 'Invalid access token', { cause });

  // A client sends the same token on every request, and a signature check costs 100–200 µs of CPU: remembering
  // tokens already verified keeps the gateway near plain-route throughput (docs/performance.md, "Targets"). Keyed by the exact
  // token string, so any altered byte misses; `exp` is re-checked on every hit; the keys and expected
  // claims are fixed for this service's lifetime, so a cached verdict cannot go stale except by expiry.
  const verified = new Map<string, AccessTokenClaims>();
  const remember = (token: string, claims: AccessTokenClaims): void => {
    if (verifiedCacheSize <= 0) return;
    if (verified.size >= verifiedCacheSize) verified.delete(verified.keys().next().value as string);
    verified.set(token, claims);
  };
  const verifiedNow = (token: string): AccessTokenClaims | undefined => {
    const cached = verified.get(token);
    if (!cached) return undefined;
    verified.delete(token);
    // Same rule as jose (`exp <= now` is expired); an expired entry is dropped, and verifying it again reports TOKEN_EXPIRED.
    if (cached.exp <= Math.floor((now ? now().getTime() : Date.now()) / 1000)) return undefined;
    verified.set(token, cached);
    return cached;
  };

  return {
    async issueAccessToken(claims) {
      const { userId, companyId, workspaceId, roles, sessionId } = claims;
      if (!isId(userId) || !isId(companyId) || !(workspaceId == null || isId(workspaceId))) {
        throw new TypeError('userId, companyId and workspaceId must be positive integers');
      }
      const nowMs = (now?.() ?? new Date()).getTime();
      const iat = Math.floor(nowMs / 1000);
      const exp = Math.floor((nowMs + accessTtlMs) / 1000);
      const jti = randomUUID();

      // Milliseconds too: a revocation of all of a user's tokens must fall between two tokens issued in one second.
      const payload: JWTPayload = { cid: companyId, iatms: nowMs };
      if (workspaceId != null) payload.wid = workspaceId;
      if (roles !== undefined) payload.roles = roles;
      if (sessionId !== undefined) payload.sid = sessionId;

      const token = await new SignJWT(payload)
        .setProtectedHeader(header)
        .setSubject(String(userId))
        .setJti(jti)
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(keys.privateKey);
      // From `exp`, not now + TTL, so the advertised expiry is exactly when verification starts failing.
      const expiresAt = new Date(exp * 1000);
      return { token, jti, expiresAt, expiresIn: formatLocalIso(expiresAt) };
    },

    verifiedNow,

    async verifyAccessToken(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
        throw invalid(new Error('Token missing or of implausible length'));
      }
      const cached = verifiedNow(token);
      if (cached) return cached;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(
          token,
          resolveKey,
          now ? { ...baseVerifyOptions, currentDate: now() } : baseVerifyOptions,
        ));
      } catch (err) {
        // jose checks `exp` only after the signature, so only an authentic token is reported as expired.
        if (err instanceof joseErrors.JWTExpired) {
          throw new AppError('TOKEN_EXPIRED', 'Access token expired', { cause: err });
        }
        throw invalid(err);
      }
      const claims = claimsOf(payload, invalid);
      remember(token, claims);
      return claims;
    },
  };
}

function claimsOf(payload: JWTPayload, invalid: (cause: unknown) => AppError): AccessTokenClaims {
  const { sub, cid, wid, jti, iat, exp, sid, roles, iatms } = payload;
  const userId = typeof sub === 'string' && /^[1-9]\d{0,15}$/.test(sub) ? Number(sub) : undefined;
  if (!isId(userId)) throw invalid(new Error('"sub" must be a positive integer string'));
  if (!isId(cid)) throw invalid(new Error('"cid" must be a positive integer'));
  if (!(wid === undefined || wid === null || isId(wid))) throw invalid(new Error('"wid" must be a positive integer'));
  if (typeof jti !== 'string' || jti === '') throw invalid(new Error('"jti" must be a non-empty string'));
  if (typeof iat !== 'number' || typeof exp !== 'number') throw invalid(new Error('"iat" and "exp" must be numbers'));
  if (iatms !== undefined && !(typeof iatms === 'number' && Number.isSafeInteger(iatms))) {
    throw invalid(new Error('"iatms" must be an integer'));
  }
  if (sid !== undefined && typeof sid !== 'string') throw invalid(new Error('"sid" must be a string'));
  if (roles !== undefined && !(Array.isArray(roles) && roles.every((r) => typeof r === 'string'))) {
    throw invalid(new Error('"roles" must be an array of strings'));
  }

  return Object.freeze({
    userId,
    companyId: cid,
    workspaceId: wid ?? null,
    jti,
    iat,
    issuedAtMs: typeof iatms === 'number' ? iatms : iat * 1000,
    exp,
    ...(sid !== undefined && { sid }),
    ...(roles !== undefined && { roles: Object.freeze([...(roles as string[])]) }),
  });
}
