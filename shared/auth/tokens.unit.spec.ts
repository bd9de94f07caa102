import { Buffer } from 'node:buffer';
import {
  decodeProtectedHeader,
  errors as joseErrors,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JWTPayload,
} from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { loadSigningKeys, type SigningAlg, type SigningKeys } from './keys.js';
import { createTokenService, formatLocalIso, type TokenService } from './tokens.js';

const ISSUER = 'qa-platform-test';
const TTL = 8 * 3_600_000;
// The PEM path never touches the data directory; a path that cannot exist keeps these tests free of I/O.
const NO_DATA_DIR = '/nonexistent/auth-unit-spec';

interface TestKeys {
  keys: SigningKeys;
  pem: string;
  spki: string;
}

async function makeKeys(alg: SigningAlg, keyId?: string): Promise<TestKeys> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const pem = await exportPKCS8(privateKey);
  const keys = await loadSigningKeys({ alg, privateKeyPem: pem, keyId, dataDir: NO_DATA_DIR });
  return { keys, pem, spki: await exportSPKI(publicKey) };
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function validPayload(overrides: JWTPayload = {}): JWTPayload {
  const nowS = Math.floor(Date.now() / 1000);
  return { sub: '7', cid: 3, jti: 'a-jti', iss: ISSUER, iat: nowS, exp: nowS + 3600, ...overrides };
}

/** Signs arbitrary claims with the service's own private key, to test claim checks behind a valid signature. */
function signRaw(keys: SigningKeys, payload: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: keys.alg, kid: keys.kid, typ: 'at+jwt', ...header })
    .sign(keys.privateKey);
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the promise to reject').toBeInstanceOf(AppError);
  return err as AppError;
}

async function expectInvalid(service: TokenService, token: string, cause?: new (...args: never[]) => Error) {
  const err = await rejection(service.verifyAccessToken(token));
  expect(err.code).toBe('TOKEN_INVALID');
  expect(err.message).toBe('Invalid access token');
  expect(err.statusCode).toBe(401);
  if (cause) expect(err.cause).toBeInstanceOf(cause);
  return err;
}

const LOCAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

function fromLocalIso(text: string): Date {
  const [y, mo, d, h, mi, s, ms] = text.split(/[-T:.]/).map(Number) as [number, ...number[]];
  return new Date(y, mo! - 1, d, h, mi, s, ms);
}

describe.each(['EdDSA', 'ES256'] as const)('access tokens with %s', (alg) => {
  let own: TestKeys;
  let service: TokenService;

  beforeAll(async () => {
    own = await makeKeys(alg);
    service = createTokenService({ keys: own.keys, issuer: ISSUER, accessTtlMs: TTL });
  });

  it('round-trips every claim it issues', async () => {
    const issued = await service.issueAccessToken({
      userId: 7,
      companyId: 3,
      workspaceId: 11,
      roles: ['Admin'],
      sessionId: 'family-1',
    });

    const claims = await service.verifyAccessToken(issued.token);

    expect(claims).toEqual({
      userId: 7,
      companyId: 3,
      workspaceId: 11,
      jti: issued.jti,
      iat: issued.expiresAt.getTime() / 1000 - TTL / 1000,
      issuedAtMs: expect.any(Number),
      exp: issued.expiresAt.getTime() / 1000,
      sid: 'family-1',
      roles: ['Admin'],
    });
    expect(Math.floor(claims.issuedAtMs / 1000)).toBe(claims.iat);
    expect(decodeProtectedHeader(issued.token)).toEqual({ alg, kid: own.keys.kid, typ: 'at+jwt' });
  });

  it('writes the standard claims sub, iss, iat, exp and jti as the spec names them, and iat in milliseconds', async () => {
    const fixedNow = new Date('2030-05-06T07:08:09.500Z');
    const issuer = createTokenService({ keys: own.keys, issuer: ISSUER, accessTtlMs: TTL, now: () => fixedNow });
    const issued = await issuer.issueAccessToken({ userId: 42, companyId: 5 });

    const { payload } = await jwtVerify(issued.token, own.keys.verificationKeys.get(own.keys.kid)!.key, {
      currentDate: fixedNow,
    });

    expect(payload).toEqual({
      sub: '42',
      cid: 5,
      iss: ISSUER,
      jti: issued.jti,
      iat: Math.floor(fixedNow.getTime() / 1000),
      iatms: fixedNow.getTime(),
      exp: Math.floor((fixedNow.getTime() + TTL) / 1000),
    });
    expect(issued.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('reports a token without workspace as workspaceId null', async () => {
    const issued = await service.issueAccessToken({ userId: 1, companyId: 2, workspaceId: null });
    const claims = await service.verifyAccessToken(issued.token);
    expect(claims.workspaceId).toBeNull();
    expect(claims).not.toHaveProperty('sid');
    expect(claims).not.toHaveProperty('roles');
  });

  it('gives a fresh jti to every token', async () => {
    const a = await service.issueAccessToken({ userId: 1, companyId: 1 });
    const b = await service.issueAccessToken({ userId: 1, companyId: 1 });
    expect(a.jti).not.toBe(b.jti);
  });

  it('states expiresIn as local time without zone, equal to the token exp', async () => {
    const fixedNow = new Date('2031-12-31T23:59:58.750Z');
    const issuer = createTokenService({ keys: own.keys, issuer: ISSUER, accessTtlMs: TTL, now: () => fixedNow });
    const issued = await issuer.issueAccessToken({ userId: 1, companyId: 1 });

    expect(issued.expiresIn).toMatch(LOCAL_ISO);
    expect(fromLocalIso(issued.expiresIn).getTime()).toBe(issued.expiresAt.getTime());
    expect(issued.expiresAt.getTime()).toBe(Math.floor((fixedNow.getTime() + TTL) / 1000) * 1000);
  });

  it('rejects a token issued long enough ago as TOKEN_EXPIRED, without waiting', async () => {
    const past = new Date(Date.now() - TTL - 60_000);
    const pastIssuer = createTokenService({ keys: own.keys, issuer: ISSUER, accessTtlMs: TTL, now: () => past });
    const issued = await pastIssuer.issueAccessToken({ userId: 1, companyId: 1 });

    const err = await rejection(service.verifyAccessToken(issued.token));

    expect(err.code).toBe('TOKEN_EXPIRED');
    expect(err.message).toBe('Access token expired');
    expect(err.statusCode).toBe(401);
    expect(err.cause).toBeInstanceOf(joseErrors.JWTExpired);
  });

  it('accepts a token until the instant in expiresAt and refuses it from then on', async () => {
    const issued = await service.issueAccessToken({ userId: 1, companyId: 1 });
    const at = (ms: number) =>
      createTokenService({ keys: own.keys, issuer: ISSUER, accessTtlMs: TTL, now: () => new Date(ms) });

    await expect(at(issued.expiresAt.getTime() - 1000).verifyAccessToken(issued.token)).resolves.toMatchObject({
      jti: issued.jti,
    });
    const err = await rejection(at(issued.expiresAt.getTime()).verifyAccessToken(issued.token));
    expect(err.code).toBe('TOKEN_EXPIRED');
  });

  it('rejects a token signed by another key under the same kid', async () => {
    const impostor = await makeKeys(alg, own.keys.kid);
    const { token: forged } = await createTokenService({ keys: impostor.keys, issuer: ISSUER, accessTtlMs: TTL })
      .issueAccessToken({ userId: 1, companyId: 1 });
    expect(decodeProtectedHeader(forged).kid).toBe(own.keys.kid);

    await expectInvalid(service, forged, joseErrors.JWSSignatureVerificationFailed);
  });

  it('rejects a token signed by another key under an unknown kid', async () => {
    const other = await makeKeys(alg);
    const { token: foreign } = await createTokenService({ keys: other.keys, issuer: ISSUER, accessTtlMs: TTL })
      .issueAccessToken({ userId: 1, companyId: 1 });
    expect(other.keys.kid).not.toBe(own.keys.kid);

    await expectInvalid(service, foreign, joseErrors.JWKSNoMatchingKey);
  });

  it('reports an expired token from a foreign key as invalid, not expired', async () => {
    const other = await makeKeys(alg, own.keys.kid);
    const past = new Date(Date.now() - TTL - 60_000);
    const { token: forged } = await createTokenService({
      keys: other.keys,
      issuer: ISSUER,
      accessTtlMs: TTL,
      now: () => past,
    }).issueAccessToken({ userId: 1, companyId: 1 });

    await expectInvalid(service, forged, joseErrors.JWSSignatureVerificationFailed);
  });

  it('rejects an unsigned alg "none" token', async () => {
    const token = `${b64url({ alg: 'none', typ: 'at+jwt', kid: own.keys.kid })}.${b64url(validPayload())}.`;
    await expectInvalid(service, token, joseErrors.JOSEAlgNotAllowed);
  });

  it.each([
    ['the public JWK as JSON', (k: TestKeys) => Buffer.from(JSON.stringify(k.keys.publicJwks.keys[0]))],
    ['the raw public key bytes', (k: TestKeys) => Buffer.from(k.keys.publicJwks.keys[0]!.x, 'base64url')],
    ['the SPKI PEM text', (k: TestKeys) => Buffer.from(k.spki)],
  ])('rejects an HS256 token keyed with %s (algorithm confusion)', async (_name, secretOf) => {
    const secret = secretOf(own);
    const token = await new SignJWT(validPayload())
      .setProtectedHeader({ alg: 'HS256', kid: own.keys.kid, typ: 'at+jwt' })
      .sign(secret);
    // The forgery is otherwise perfect: a verifier that trusted the header's alg would accept it.
    await expect(jwtVerify(token, secret, { issuer: ISSUER, typ: 'at+jwt' })).resolves.toBeDefined();

    await expectInvalid(service, token, joseErrors.JOSEAlgNotAllowed);
  });

  it('rejects a token whose payload was altered after signing', async () => {
    const issued = await service.issueAccessToken({ userId: 7, companyId: 3, workspaceId: 11 });
    const [header, payload, signature] = issued.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as JWTPayload;
    const tampered = `${header}.${b64url({ ...claims, cid: 4 })}.${signature}`;

    await expectInvalid(service, tampered, joseErrors.JWSSignatureVerificationFailed);
  });

  it.each([
    ['jti', { jti: undefined }],
    ['iat', { iat: undefined }],
    ['sub', { sub: undefined }],
    ['exp', { exp: undefined }],
    ['iss', { iss: undefined }],
  ])('rejects a correctly signed token without %s', async (_claim, overrides) => {
    const token = await signRaw(own.keys, validPayload(overrides));
    await expectInvalid(service, token, joseErrors.JWTClaimValidationFailed);
  });

  it('accepts the hand-built token these claim tests start from', async () => {
    const token = await signRaw(own.keys, validPayload());
    await expect(service.verifyAccessToken(token)).resolves.toMatchObject({ userId: 7, companyId: 3, jti: 'a-jti' });
  });

  it('rejects a correctly signed token from another issuer', async () => {
    const token = await signRaw(own.keys, validPayload({ iss: 'someone-else' }));
    await expectInvalid(service, token, joseErrors.JWTClaimValidationFailed);
  });

  it.each([['JWT'], ['refresh+jwt']])('rejects a correctly signed token with typ %s', async (typ) => {
    const token = await signRaw(own.keys, validPayload(), { typ });
    await expectInvalid(service, token, joseErrors.JWTClaimValidationFailed);
  });

  it.each([
    ['a non-numeric sub', { sub: 'admin' }],
    ['a zero sub', { sub: '0' }],
    ['a missing cid', { cid: undefined }],
    ['a string cid', { cid: '3' }],
    ['a fractional wid', { wid: 1.5 }],
    ['an empty jti', { jti: '' }],
    ['non-string roles', { roles: [1] }],
  ])('rejects a correctly signed token with %s', async (_name, overrides) => {
    const token = await signRaw(own.keys, validPayload(overrides));
    await expectInvalid(service, token);
  });

  it.each([[''], ['not-a-token'], ['a.b.c'], ['x'.repeat(10_000)]])('rejects the garbage %#', async (token) => {
    await expectInvalid(service, token);
  });
});

describe('access tokens across keys and algorithms', () => {
  it('accepts tokens of an old key listed in the extra JWKS after a rotation', async () => {
    const old = await makeKeys('EdDSA');
    const next = await makeKeys('ES256');
    const rotated = await loadSigningKeys({
      alg: 'ES256',
      privateKeyPem: next.pem,
      extraJwks: JSON.stringify(old.keys.publicJwks),
      dataDir: NO_DATA_DIR,
    });
    const { token: oldToken } = await createTokenService({ keys: old.keys, issuer: ISSUER, accessTtlMs: TTL })
      .issueAccessToken({ userId: 9, companyId: 1 });

    const verifier = createTokenService({ keys: rotated, issuer: ISSUER, accessTtlMs: TTL });

    await expect(verifier.verifyAccessToken(oldToken)).resolves.toMatchObject({ userId: 9 });
    // Without the extra JWKS the same token is refused, so it is the rotation list that accepted it.
    await expectInvalid(createTokenService({ keys: next.keys, issuer: ISSUER, accessTtlMs: TTL }), oldToken);
  });

  it('refuses a kid with a signature in an algorithm other than that key’s, even when both are accepted', async () => {
    const ed = await makeKeys('EdDSA');
    const es = await makeKeys('ES256');
    const both = await loadSigningKeys({
      alg: 'ES256',
      privateKeyPem: es.pem,
      extraJwks: JSON.stringify(ed.keys.publicJwks),
      dataDir: NO_DATA_DIR,
    });
    const token = await signRaw(es.keys, validPayload(), { kid: ed.keys.kid });

    const err = await expectInvalid(createTokenService({ keys: both, issuer: ISSUER, accessTtlMs: TTL }), token);
    expect(err.cause).toBeInstanceOf(joseErrors.JOSEAlgNotAllowed);
  });

  it('refuses to issue for ids that are not positive integers', async () => {
    const { keys } = await makeKeys('EdDSA');
    const service = createTokenService({ keys, issuer: ISSUER, accessTtlMs: TTL });
    await expect(service.issueAccessToken({ userId: 0, companyId: 1 })).rejects.toThrow(TypeError);
    await expect(service.issueAccessToken({ userId: 1, companyId: 1.5 })).rejects.toThrow(TypeError);
    await expect(service.issueAccessToken({ userId: 1, companyId: 1, workspaceId: -1 })).rejects.toThrow(TypeError);
  });

  it('refuses a lifetime shorter than the one-second resolution of exp', async () => {
    const { keys } = await makeKeys('EdDSA');
    expect(() => createTokenService({ keys, issuer: ISSUER, accessTtlMs: 999 })).toThrow(RangeError);
  });
});

describe('the cache of verified tokens', () => {
  let own: TestKeys;
  beforeAll(async () => {
    own = await makeKeys('EdDSA');
  });
  const serviceWith = (options: { now?: () => Date; verifiedCacheSize?: number } = {}) =>
    createTokenService({ keys: own.keys, issuer: ISSUER, accessTtlMs: TTL, ...options });

  it('answers a repeated token from the cache with the same frozen claims', async () => {
    const service = serviceWith();
    const { token } = await service.issueAccessToken({ userId: 1, companyId: 1, roles: ['Member'] });

    const first = await service.verifyAccessToken(token);
    const second = await service.verifyAccessToken(token);

    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.roles)).toBe(true);
  });

  it('still reports TOKEN_EXPIRED for a cached token once its exp has passed', async () => {
    let clock = new Date('2030-01-01T00:00:00.000Z');
    const service = serviceWith({ now: () => clock });
    const issued = await service.issueAccessToken({ userId: 1, companyId: 1 });
    await service.verifyAccessToken(issued.token);

    clock = issued.expiresAt;

    const err = await rejection(service.verifyAccessToken(issued.token));
    expect(err.code).toBe('TOKEN_EXPIRED');
  });

  it('rejects an altered copy of a cached token', async () => {
    const service = serviceWith();
    const { token } = await service.issueAccessToken({ userId: 7, companyId: 3 });
    await service.verifyAccessToken(token);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as JWTPayload;

    await expectInvalid(service, `${header}.${b64url({ ...claims, sub: '8' })}.${signature}`);
  });

  it('forgets the least recently used token beyond its size, and caches nothing at size 0', async () => {
    const service = serviceWith({ verifiedCacheSize: 1 });
    const a = (await service.issueAccessToken({ userId: 1, companyId: 1 })).token;
    const b = (await service.issueAccessToken({ userId: 2, companyId: 1 })).token;

    const firstA = await service.verifyAccessToken(a);
    await service.verifyAccessToken(b);
    const againA = await service.verifyAccessToken(a);

    expect(againA).toEqual(firstA);
    expect(againA).not.toBe(firstA);

    const uncached = serviceWith({ verifiedCacheSize: 0 });
    expect(await uncached.verifyAccessToken(a)).not.toBe(await uncached.verifyAccessToken(a));
  });
});

describe('formatLocalIso', () => {
  const originalTz = process.env.TZ;
  afterEach(() => {
    if (originalTz === undefined) delete process.env.TZ;
    else process.env.TZ = originalTz;
  });

  it.each([
    ['Asia/Kolkata', '2024-01-01T05:30:00.007'],
    ['America/Sao_Paulo', '2023-12-31T21:00:00.007'],
    ['UTC', '2024-01-01T00:00:00.007'],
  ])('writes the wall-clock time of TZ=%s without a zone', (tz, expected) => {
    process.env.TZ = tz;
    expect(formatLocalIso(new Date('2024-01-01T00:00:00.007Z'))).toBe(expected);
  });

  it('makes expiresIn follow TZ rather than UTC', async () => {
    process.env.TZ = 'Asia/Kolkata';
    const { keys } = await makeKeys('EdDSA');
    const fixedNow = new Date('2024-01-01T00:00:00.000Z');
    const service = createTokenService({ keys, issuer: ISSUER, accessTtlMs: 3_600_000, now: () => fixedNow });

    const issued = await service.issueAccessToken({ userId: 1, companyId: 1 });

    expect(issued.expiresAt.toISOString()).toBe('2024-01-01T01:00:00.000Z');
    expect(issued.expiresIn).toBe('2024-01-01T06:30:00.000');
  });

  it('pads every field to its fixed width', () => {
    const local = new Date(987, 0, 2, 3, 4, 5, 6);
    expect(formatLocalIso(local)).toBe('0987-01-02T03:04:05.006');
  });

  it('refuses an invalid date instead of printing NaN', () => {
    expect(() => formatLocalIso(new Date('nope'))).toThrow(RangeError);
  });
});
