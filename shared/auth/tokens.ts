import { randomUUID } from 'node:crypto';
import {
  errors as joseErrors,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWTHeaderParameters,
  type JWTPayload,
  type JWTVerifyOptions,
} from 'jose';
import { AppError } from '../errors.js';
import type { SigningKeys } from './keys.js';

/** The `typ` header of access tokens (RFC 9068), so no other JWT of ours can pass as one. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** Real tokens are well under 1 KiB; anything far larger is refused before any parsing or crypto. */
const MAX_TOKEN_LENGTH = 8192;

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

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Every algorithm some verification key takes. */
const algorithmsOf = (keys: SigningKeys): string[] => [...new Set([...keys.verificationKeys.values()].map((k) => k.alg))];

/** The verification key a token's header names by `kid`, accepted only under that key's own algorithm. */
function keyResolver(keys: SigningKeys): (protectedHeader: JWTHeaderParameters) => CryptoKey {
  return (protectedHeader) => {
    const entry = typeof protectedHeader.kid === 'string' ? keys.verificationKeys.get(protectedHeader.kid) : undefined;
    if (!entry) throw new joseErrors.JWKSNoMatchingKey('No verification key for this "kid"');
    // Each key verifies only under its own algorithm, even when several algorithms are accepted overall.
    if (protectedHeader.alg !== entry.alg) throw new joseErrors.JOSEAlgNotAllowed('"alg" does not match the key');
    return entry.key;
  };
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

/**
 * The `typ` header of OAuth client-credentials tokens. It differs from `at+jwt`, so such a token never
 * passes `verifyAccessToken` (and a user's access token never passes `verifyClientToken`).
 */
export const CLIENT_TOKEN_TYPE = 'client-at+jwt';
/** The audience of OAuth client tokens: the `/v1` set, the only place they are accepted. */
export const CLIENT_TOKEN_AUDIENCE = 'qa-platform/v1';

export interface ClientTokenInput {
  /** The client's public `client_id` (the token's `sub`). */
  clientId: string;
  /** The client's record id, to check its deletion on every use. */
  clientRecordId: string;
  /** The user who created the client; the token acts as this user. */
  userId: number;
  companyId: number;
  workspaceId: number;
  scopes: readonly string[];
}

export interface ClientTokenClaims {
  readonly clientId: string;
  readonly clientRecordId: string;
  readonly userId: number;
  readonly companyId: number;
  readonly workspaceId: number;
  readonly scopes: readonly string[];
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
}

export interface IssuedClientToken {
  token: string;
  jti: string;
  expiresAt: Date;
  /** Lifetime in whole seconds, for `expires_in`. */
  expiresInSeconds: number;
}

export interface ClientTokenService {
  issueClientToken(input: ClientTokenInput): Promise<IssuedClientToken>;
  verifyClientToken(token: string): Promise<ClientTokenClaims>;
}

/** Whether a bearer value looks like an OAuth client token (its header only; nothing is verified). */
export function looksLikeClientToken(token: string): boolean {
  if (token.length > MAX_TOKEN_LENGTH) return false;
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  // Every token one key signs has the same header segment, so it is decoded once, not per request.
  const segment = token.slice(0, dot);
  const known = headerKinds.get(segment);
  if (known !== undefined) return known;
  let isClient = false;
  try {
    const header = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
    isClient = typeof header === 'object' && header !== null && (header as { typ?: unknown }).typ === CLIENT_TOKEN_TYPE;
  } catch {
    isClient = false;
  }
  if (headerKinds.size >= HEADER_KINDS_KEPT) headerKinds.clear();
  headerKinds.set(segment, isClient);
  return isClient;
}
/** Header segments already read (a handful in practice: one per signing key and token type); bounded against junk. */
const headerKinds = new Map<string, boolean>();
const HEADER_KINDS_KEPT = 256;

/**
 * Issues and verifies OAuth client-credentials tokens with the platform's signing keys: a distinct
 * `typ` and audience, `sub` the client id, `uid` the acting user, `cid`/`wid` its company and
 * workspace, `scope` space-separated, `cli` the client's record id.
 */
export function createClientTokenService(options: { keys: SigningKeys; issuer: string; ttlMs: number; now?: () => Date }): ClientTokenService {
  const { keys, issuer, ttlMs, now } = options;
  if (!Number.isFinite(ttlMs) || ttlMs < 1000) throw new RangeError('ttlMs must be at least 1000');
  const header: JWTHeaderParameters = { alg: keys.alg, kid: keys.kid, typ: CLIENT_TOKEN_TYPE };
  const verifyOptions: JWTVerifyOptions = {
    algorithms: algorithmsOf(keys),
    issuer,
    audience: CLIENT_TOKEN_AUDIENCE,
    typ: CLIENT_TOKEN_TYPE,
    requiredClaims: ['iss', 'aud', 'iat', 'exp', 'sub', 'jti'],
  };
  const resolveKey = keyResolver(keys);
  const invalid = (cause: unknown): AppError => new AppError('TOKEN_INVALID', 'Invalid OAuth client token', { cause });

  return {
    async issueClientToken(input) {
      const { clientId, clientRecordId, userId, companyId, workspaceId, scopes } = input;
      if (!isId(userId) || !isId(companyId) || !isId(workspaceId)) throw new TypeError('userId, companyId and workspaceId must be positive integers');
      if (!clientId || !clientRecordId) throw new TypeError('clientId and clientRecordId are required');
      const nowMs = (now?.() ?? new Date()).getTime();
      const iat = Math.floor(nowMs / 1000);
      const exp = Math.floor((nowMs + ttlMs) / 1000);
      const jti = randomUUID();
      const token = await new SignJWT({ uid: userId, cid: companyId, wid: workspaceId, scope: scopes.join(' '), cli: clientRecordId })
        .setProtectedHeader(header)
        .setSubject(clientId)
        .setAudience(CLIENT_TOKEN_AUDIENCE)
        .setJti(jti)
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(keys.privateKey);
      return { token, jti, expiresAt: new Date(exp * 1000), expiresInSeconds: exp - iat };
    },

    async verifyClientToken(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) {
        throw invalid(new Error('Token missing or of implausible length'));
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, resolveKey, now ? { ...verifyOptions, currentDate: now() } : verifyOptions));
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED', 'OAuth client token expired', { cause: err });
        throw invalid(err);
      }
      const { sub, uid, cid, wid, scope, cli, jti, iat, exp } = payload;
      if (typeof sub !== 'string' || sub === '') throw invalid(new Error('"sub" must be the client id'));
      if (!isId(uid) || !isId(cid) || !isId(wid)) throw invalid(new Error('"uid", "cid" and "wid" must be positive integers'));
      if (typeof scope !== 'string' || typeof cli !== 'string' || cli === '') throw invalid(new Error('"scope" and "cli" must be strings'));
      if (typeof jti !== 'string' || jti === '' || typeof iat !== 'number' || typeof exp !== 'number') throw invalid(new Error('bad "jti", "iat" or "exp"'));
      return Object.freeze({
        clientId: sub,
        clientRecordId: cli,
        userId: uid,
        companyId: cid,
        workspaceId: wid,
        scopes: Object.freeze(scope.split(' ').filter(Boolean)),
        jti,
        iat,
        exp,
      });
    },
  };
}

/** The `typ` header of data-plane tokens (service → agent), so no other JWT of ours can pass as one. */
export const DATA_PLANE_TOKEN_TYPE = 'df-dp+jwt';
/** The audience of data-plane tokens: a device host's agent. */
export const DATA_PLANE_AUDIENCE = 'df-agent';
/** The longest lifetime a data-plane token may have; an agent refuses tokens valid for longer. */
export const DATA_PLANE_MAX_TTL_SECONDS = 60;

export interface DataPlaneTokenClaims {
  /** The device host the token is for (`sub`). */
  hostId: string;
  deviceId: string;
  sessionId: string;
  /** What the bearer may do on the data plane (`devtools`, `webdriver`, ...). */
  scope: string;
}

/**
 * Signs a short-lived token the gateway presents to an agent's data plane: audience `df-agent`,
 * `sub` the host, the device, session and scope it is good for, valid for `ttlSeconds` (at most 60).
 */
export async function issueDataPlaneToken(
  keys: Pick<SigningKeys, 'alg' | 'kid' | 'privateKey'>,
  claims: DataPlaneTokenClaims,
  options: { ttlSeconds?: number; now?: Date } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const ttl = Math.min(options.ttlSeconds ?? 30, DATA_PLANE_MAX_TTL_SECONDS);
  if (!(ttl >= 1)) throw new RangeError('ttlSeconds must be at least 1');
  const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const token = await new SignJWT({ deviceId: claims.deviceId, sessionId: claims.sessionId, scope: claims.scope })
    .setProtectedHeader({ alg: keys.alg, kid: keys.kid, typ: DATA_PLANE_TOKEN_TYPE })
    .setSubject(claims.hostId)
    .setAudience(DATA_PLANE_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(keys.privateKey);
  return { token, expiresAt: new Date((iat + ttl) * 1000) };
}
