import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenService, loadSigningKeys } from '#shared/auth/index.js';
import { http, startTestServer, type TestServer, errorCode } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

const ADMIN = { email: 'admin@example.com', password: 'correct horse battery' };

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

async function login(body: Record<string, string>, headers: Record<string, string> = {}) {
  return http(server.url, 'POST', '/api/v1/auth/login', { body, headers });
}

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: smtp.url,
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
  });
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

describe('sign-in', () => {
  it('signs the bootstrap administrator in by e-mail and by username, with a token pair', async () => {
    const byEmail = await login({ email: ADMIN.email, password: ADMIN.password });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.token.split('.')).toHaveLength(3);
    expect(byEmail.body.refreshToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(byEmail.body.expiresIn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?$/);
    const expires = new Date(byEmail.body.expiresIn); // no zone: parsed as local time, as the server wrote it
    const hours = (expires.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(7.9);
    expect(hours).toBeLessThanOrEqual(8);

    const byUsername = await login({ username: 'admin', password: ADMIN.password });
    expect(byUsername.status).toBe(200);
    const me = await http(server.url, 'POST', '/api/v1/auth/switch-workspace/1', { token: byUsername.body.token });
    expect(me.status).toBe(200);
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password and for an unknown account alike', async () => {
    const wrong = await login({ email: ADMIN.email, password: 'wrong password!' }, { 'x-forwarded-for': 'ignored' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ statusCode: 401, code: 'INVALID_CREDENTIALS', error: 'Unauthorized' });
    const unknown = await login({ email: 'nobody@example.com', password: 'whatever123' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('INVALID_CREDENTIALS');
    expect(unknown.body.message).toBe(wrong.body.message);
  });

  it('answers 400 with details for a body without username or e-mail', async () => {
    const r = await login({ password: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION_FAILED');
    expect(r.body.details[0].path).toBe('username');
  });
});

describe('access tokens at the gateway', () => {
  it('rejects an expired token with 401 TOKEN_EXPIRED', async () => {
    const keys = await loadSigningKeys({ alg: 'EdDSA', dataDir: server.dataDir });
    const past = createTokenService({ keys, issuer: 'qa-platform', accessTtlMs: 60_000, now: () => new Date(Date.now() - 3_600_000) });
    const { token } = await past.issueAccessToken({ userId: 1, companyId: 1, workspaceId: 1 });
    const r = await http(server.url, 'GET', '/df/api/client-config', { token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('TOKEN_EXPIRED');
  });

  it('rejects a token signed by another key under the real kid with 401 TOKEN_INVALID', async () => {
    const real = await loadSigningKeys({ alg: 'EdDSA', dataDir: server.dataDir });
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const other = await loadSigningKeys({ alg: 'EdDSA', dataDir: mkdtempSync(`${tmpdir()}/other-key-`) });
    expect(other.kid).not.toBe(real.kid);
    const now = Math.floor(Date.now() / 1000);
    const claims = { cid: 1, wid: 1 };
    const forged = {
      token: await new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid: real.kid, typ: 'at+jwt' })
        .setSubject('1')
        .setJti('forged-1')
        .setIssuer('qa-platform')
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(other.privateKey),
    };
    const r = await http(server.url, 'GET', '/df/api/client-config', { token: forged.token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('TOKEN_INVALID');
  });

  it('rejects alg "none" and the HS256-with-the-public-key trick', async () => {
    const jwks = (await http(server.url, 'GET', '/api/v1/auth/jwks')).body as { keys: { kid: string; x: string }[] };
    const kid = jwks.keys[0]!.kid;
    const now = Math.floor(Date.now() / 1000);
    const payload = b64url(JSON.stringify({ sub: '1', cid: 1, wid: 1, jti: 'x-1', iss: 'qa-platform', iat: now, exp: now + 600 }));
    const none = `${b64url(JSON.stringify({ alg: 'none', kid, typ: 'at+jwt' }))}.${payload}.`;
    const rNone = await http(server.url, 'GET', '/df/api/client-config', { token: none });
    expect(rNone.status).toBe(401);
    expect(errorCode(rNone)).toBe('TOKEN_INVALID');

    for (const secret of [JSON.stringify(jwks.keys[0]), Buffer.from(jwks.keys[0]!.x, 'base64url')]) {
      const header = b64url(JSON.stringify({ alg: 'HS256', kid, typ: 'at+jwt' }));
      const sig = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
      const r = await http(server.url, 'GET', '/df/api/client-config', { token: `${header}.${payload}.${sig}` });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('TOKEN_INVALID');
    }
  });

  it('answers 401 without a token, and reaches the module with one', async () => {
    expect((await http(server.url, 'GET', '/df/api/client-config')).status).toBe(401);
    const { body } = await login({ email: ADMIN.email, password: ADMIN.password });
    const ok = await http(server.url, 'GET', '/df/api/client-config', { token: body.token });
    expect(ok.status).toBe(200);
    expect(ok.body.apiBasePath).toBe('/df/api');
  });
});

describe('refresh and logout', () => {
  it('rotates the refresh token, and a reused one revokes the whole family', async () => {
    const first = await login({ email: ADMIN.email, password: ADMIN.password });
    const second = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.body.refreshToken);
    expect(second.body.token).not.toBe(first.body.token);

    const reuse = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: first.body.refreshToken } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('REFRESH_TOKEN_REUSED');
    // The family is gone: the legitimate successor no longer works either.
    const successor = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: second.body.refreshToken } });
    expect(successor.status).toBe(401);
    expect(errorCode(successor)).toBe('REFRESH_TOKEN_INVALID');
  });

  it('answers 401 for an unknown refresh token', async () => {
    const r = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: 'not-a-token' } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('REFRESH_TOKEN_INVALID');
  });

  it('blocklists the access token on logout, and ends its refresh family', async () => {
    const pair = (await login({ email: ADMIN.email, password: ADMIN.password })).body;
    expect((await http(server.url, 'GET', '/df/api/client-config', { token: pair.token })).status).toBe(200);
    const out = await http(server.url, 'POST', '/api/v1/auth/logout', { token: pair.token });
    expect(out.status).toBe(204);
    const after = await http(server.url, 'GET', '/df/api/client-config', { token: pair.token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('TOKEN_REVOKED');
    const refresh = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: pair.refreshToken } });
    expect(refresh.status).toBe(401);
    expect(errorCode(refresh)).toBe('REFRESH_TOKEN_INVALID');
  });
});

describe('sign-up and password reset', () => {
  it('signs up a company with its Default workspace, and refuses a second account with the same e-mail', async () => {
    const body = { email: 'founder@acme.test', password: 'acme-password-1', name: 'Ada Founder', companyName: 'Acme' };
    const r = await http(server.url, 'POST', '/api/v1/auth/signup', { body });
    expect(r.status).toBe(201);
    expect(r.body.token).toBeTruthy();
    const again = await http(server.url, 'POST', '/api/v1/auth/signup', { body: { ...body, email: 'FOUNDER@acme.test' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('EMAIL_TAKEN');
    const signIn = await login({ email: body.email, password: body.password });
    expect(signIn.status).toBe(200);
  });

  it('mails a reset link through SMTP; the token sets a new password once and ends older tokens', async () => {
    const email = 'reset-me@acme.test';
    await http(server.url, 'POST', '/api/v1/auth/signup', { body: { email, password: 'old-password-1', name: 'R', companyName: 'Resets' } });
    const old = (await login({ email, password: 'old-password-1' })).body;

    const forgot = await http(server.url, 'POST', '/api/v1/auth/forgot-password', { body: { email } });
    expect(forgot.status).toBe(202);
    const unknown = await http(server.url, 'POST', '/api/v1/auth/forgot-password', { body: { email: 'ghost@acme.test' } });
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(forgot.body);

    const mail = await smtp.waitForMail(email);
    const token = /Token: ([A-Za-z0-9_-]+)/.exec(decodeQuotedPrintable(mail.raw))?.[1];
    expect(token).toBeTruthy();

    const reset = await http(server.url, 'POST', '/api/v1/auth/reset-password', { body: { token, password: 'new-password-2' } });
    expect(reset.status).toBe(200);
    const replay = await http(server.url, 'POST', '/api/v1/auth/reset-password', { body: { token, password: 'new-password-3' } });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('INVALID_RESET_TOKEN');

    expect((await login({ email, password: 'old-password-1' })).status).toBe(401);
    expect((await login({ email, password: 'new-password-2' })).status).toBe(200);
    expect((await http(server.url, 'GET', '/df/api/client-config', { token: old.token })).status).toBe(401);
    expect((await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: old.refreshToken } })).status).toBe(401);
  });

  it('refuses a password shorter than 8 characters with 400 and details', async () => {
    const r = await http(server.url, 'POST', '/api/v1/auth/signup', {
      body: { email: 'short@acme.test', password: 'short', name: 'S', companyName: 'Shorts' },
    });
    expect(r.status).toBe(400);
    expect(errorCode(r)).toBe('VALIDATION_FAILED');
    expect(r.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'password' })]));
  });
});

describe('throttling', () => {
  it('answers 429 with Retry-After after repeated failures from one address, while another address still signs in', async () => {
    const email = 'throttled@acme.test';
    await http(server.url, 'POST', '/api/v1/auth/signup', { body: { email, password: 'right-password', name: 'T', companyName: 'Throttle' } });
    for (let i = 0; i < 3; i++) expect((await login({ email, password: 'wrong-password' })).status).toBe(401);
    const blocked = await login({ email, password: 'right-password' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
