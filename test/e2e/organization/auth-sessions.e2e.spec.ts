import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createActiveUser, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * A sign-in session (the refresh family, the `sid` of its access tokens) is the unit of revocation:
 * logout, refresh-token reuse, ending it from the list and "sign out everywhere" end every token of
 * it at once, while the user's other sign-ins go on.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let company: SignedUpCompany;

beforeAll(async () => {
  smtp = await startSmtpListener();
  server = await startTestServer({ SMTP_URL: smtp.url });
  company = await signUpCompany(server.url, 'sessions');
});

afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

interface Pair {
  token: string;
  refreshToken: string;
}

const login = async (email: string, password: string, userAgent = 'sessions-test'): Promise<Pair> => {
  const r = await http(server.url, 'POST', '/api/v1/auth/login', { body: { email, password }, headers: { 'user-agent': userAgent } });
  expect(r.status).toBe(200);
  return r.body as Pair;
};
const me = (token: string) => http(server.url, 'GET', '/api/v1/users/me', { token });
const refresh = (refreshToken: string) => http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken } });
const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
const switchTo = async (token: string, workspaceId: number): Promise<Pair> => {
  const r = await http(server.url, 'POST', `/api/v1/auth/switch-workspace/${workspaceId}`, { token });
  expect(r.status).toBe(200);
  return r.body as Pair;
};
const expectRevoked = async (token: string) => {
  const r = await me(token);
  expect(r.status).toBe(401);
  expect(errorCode(r)).toBe('TOKEN_REVOKED');
};

describe('logout', () => {
  it('ends every access token of the sign-in, the switched-workspace one included, and its refresh tokens; another sign-in goes on', async () => {
    const a = await login(company.email, company.password);
    const switched = await switchTo(a.token, company.workspaceId);
    expect(sidOf(switched.token)).toBe(sidOf(a.token));
    const b = await login(company.email, company.password);
    for (const t of [a.token, switched.token, b.token]) expect((await me(t)).status).toBe(200);

    // Logging out with one token of the sign-in ends the other as well.
    expect((await http(server.url, 'POST', '/api/v1/auth/logout', { token: a.token })).status).toBe(204);
    await expectRevoked(a.token);
    await expectRevoked(switched.token);
    for (const rt of [a.refreshToken, switched.refreshToken]) {
      const r = await refresh(rt);
      expect(r.status).toBe(401);
      expect(errorCode(r)).toBe('REFRESH_TOKEN_INVALID');
    }
    // The same user's other sign-in is untouched.
    expect((await me(b.token)).status).toBe(200);
    expect((await refresh(b.refreshToken)).status).toBe(200);
  });

  it('from the switched-workspace token also ends the token it was switched from', async () => {
    const a = await login(company.email, company.password);
    const switched = await switchTo(a.token, company.workspaceId);
    expect((await http(server.url, 'POST', '/api/v1/auth/logout', { token: switched.token })).status).toBe(204);
    await expectRevoked(a.token);
    await expectRevoked(switched.token);
    expect((await refresh(a.refreshToken)).status).toBe(401);
  });
});

describe('refresh-token reuse', () => {
  it("ends both access tokens of the family, the owner's and the one minted with the stolen token", async () => {
    const owner = await login(company.email, company.password);
    const thief = (await refresh(owner.refreshToken)).body as Pair;
    expect((await me(owner.token)).status).toBe(200);
    expect((await me(thief.token)).status).toBe(200);
    const other = await login(company.email, company.password);

    const reuse = await refresh(owner.refreshToken);
    expect(reuse.status).toBe(401);
    expect(errorCode(reuse)).toBe('REFRESH_TOKEN_REUSED');
    await expectRevoked(owner.token);
    await expectRevoked(thief.token);
    expect(errorCode(await refresh(thief.refreshToken))).toBe('REFRESH_TOKEN_INVALID');

    // Another sign-in of the user still works, and no longer lists the stolen session.
    expect((await me(other.token)).status).toBe(200);
    const list = await http(server.url, 'GET', '/api/v1/auth/sessions?size=200', { token: other.token });
    expect(list.status).toBe(200);
    const ids = (list.body.content as { id: string }[]).map((s) => s.id);
    expect(ids).toContain(sidOf(other.token));
    expect(ids).not.toContain(sidOf(owner.token));
  });
});

describe('the sign-in sessions of a user', () => {
  it('lists the active ones (user agent, address, created, last use, current) and ends one of them', async () => {
    const user = await signUpCompany(server.url, 'list');
    const one = await login(user.email, user.password, 'Agent-One/1.0');
    const two = await login(user.email, user.password, 'Agent-Two/2.0');
    expect((await me(two.token)).status).toBe(200);

    const list = await http(server.url, 'GET', '/api/v1/auth/sessions', { token: one.token });
    expect(list.status).toBe(200);
    // The sign-up started a session too.
    expect(list.body).toMatchObject({ page: 0, size: 20, totalElements: 3, totalPages: 1 });
    const sessions = list.body.content as Record<string, unknown>[];
    const mine = sessions.find((s) => s.id === sidOf(one.token))!;
    const theirs = sessions.find((s) => s.id === sidOf(two.token))!;
    expect(mine).toMatchObject({ current: true, userAgent: 'Agent-One/1.0', address: '127.0.0.1' });
    expect(theirs).toMatchObject({ current: false, userAgent: 'Agent-Two/2.0', address: '127.0.0.1', lastAddress: '127.0.0.1' });
    for (const s of [mine, theirs]) {
      expect(Date.parse(s.createdAt as string)).toBeGreaterThan(Date.now() - 120_000);
      expect(Date.parse(s.lastUsedAt as string)).toBeGreaterThanOrEqual(Date.parse(s.createdAt as string));
      expect(Date.parse(s.expiresAt as string)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    }

    const ended = await http(server.url, 'DELETE', `/api/v1/auth/sessions/${sidOf(two.token)}`, { token: one.token });
    expect(ended.status).toBe(204);
    await expectRevoked(two.token);
    expect((await refresh(two.refreshToken)).status).toBe(401);
    expect((await me(one.token)).status).toBe(200);
    const after = await http(server.url, 'GET', '/api/v1/auth/sessions', { token: one.token });
    expect((after.body.content as { id: string }[]).map((s) => s.id)).not.toContain(sidOf(two.token));
    expect(after.body.totalElements).toBe(2);

    // Ended already, another user's, not a session id.
    expect((await http(server.url, 'DELETE', `/api/v1/auth/sessions/${sidOf(two.token)}`, { token: one.token })).status).toBe(404);
    const stranger = await login(company.email, company.password);
    expect((await http(server.url, 'DELETE', `/api/v1/auth/sessions/${sidOf(stranger.token)}`, { token: one.token })).status).toBe(404);
    expect((await me(stranger.token)).status).toBe(200);
    const bad = await http(server.url, 'DELETE', '/api/v1/auth/sessions/not-a-session', { token: one.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'params.sessionId' })]);

    // Ending your own current session is a logout.
    expect((await http(server.url, 'DELETE', `/api/v1/auth/sessions/${sidOf(one.token)}`, { token: one.token })).status).toBe(204);
    await expectRevoked(one.token);
  });

  it('moves lastUsedAt on a refresh', async () => {
    const user = await signUpCompany(server.url, 'used');
    const pair = await login(user.email, user.password);
    const listed = async (token: string) =>
      ((await http(server.url, 'GET', '/api/v1/auth/sessions', { token })).body.content as Record<string, string>[]).find((s) => s.id === sidOf(pair.token))!;
    const before = await listed(pair.token);
    const next = (await refresh(pair.refreshToken)).body as Pair;
    const after = await listed(next.token);
    expect(sidOf(next.token)).toBe(sidOf(pair.token));
    expect(Date.parse(after.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(before.lastUsedAt!));
    expect(Date.parse(after.lastUsedAt!)).toBeGreaterThan(Date.parse(before.createdAt!));
  });
});

describe('sign out everywhere', () => {
  it("an administrator ends every session of a user at once; the user's next sign-in works", async () => {
    const admin = client(server.url, company.token);
    const member = await createActiveUser(server.url, admin, smtp.mails, { email: 'everywhere@sessions.test' });
    const second = await login(member.email, member.password, 'laptop');
    // A member of the company may enter its Default workspace only when granted; switch when possible.
    const switched = await http(server.url, 'POST', `/api/v1/auth/switch-workspace/${company.workspaceId}`, { token: second.token });
    const tokens = [member.token, second.token, ...(switched.status === 200 ? [switched.body.token as string] : [])];
    for (const t of tokens) expect((await me(t)).status).toBe(200);
    const listed = await admin.get(`/users/${member.id}/sessions`);
    expect(listed.status).toBe(200);
    expect(listed.body.totalElements).toBe(2);

    // A member without USER_MANAGE cannot sign the administrator out.
    const refused = await http(server.url, 'POST', `/api/v1/users/${company.userId}/sign-out-everywhere`, { token: member.token });
    expect(refused.status).toBe(403);
    expect((await me(company.token)).status).toBe(200);

    expect((await admin.post(`/users/${member.id}/sign-out-everywhere`)).status).toBe(204);
    for (const t of tokens) await expectRevoked(t);
    expect((await refresh(second.refreshToken)).status).toBe(401);
    expect((await admin.get(`/users/${member.id}/sessions`)).body.totalElements).toBe(0);
    // The administrator's own sessions go on.
    expect((await me(company.token)).status).toBe(200);

    // Signing in again starts a fresh session.
    const again = await login(member.email, member.password);
    expect((await me(again.token)).status).toBe(200);
    const fresh = await http(server.url, 'GET', '/api/v1/auth/sessions', { token: again.token });
    expect((fresh.body.content as { id: string }[]).map((s) => s.id)).toEqual([sidOf(again.token)]);

    // Another company's user is not found.
    const rival = await signUpCompany(server.url, 'rival');
    expect((await admin.post(`/users/${rival.userId}/sign-out-everywhere`)).status).toBe(404);
    expect((await me(rival.token)).status).toBe(200);
  });

  it('a password change ends the listed sessions too', async () => {
    const user = await signUpCompany(server.url, 'password');
    const other = await login(user.email, user.password);
    const changed = await http(server.url, 'PUT', '/api/v1/users/password', { token: other.token, body: { currentPassword: user.password, newPassword: 'a brand new password' } });
    expect(changed.status).toBe(204);
    await expectRevoked(other.token);
    await expectRevoked(user.token);
    const fresh = await login(user.email, 'a brand new password');
    const list = await http(server.url, 'GET', '/api/v1/auth/sessions', { token: fresh.token });
    expect((list.body.content as { id: string }[]).map((s) => s.id)).toEqual([sidOf(fresh.token)]);
  });
});
