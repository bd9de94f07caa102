import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTHeaderParameters, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { AppError } from '../errors.js';
import { algorithmsOf, isId, keyResolver, MAX_TOKEN_LENGTH } from './jwt-common.js';
import type { SigningKeys } from './keys.js';

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
