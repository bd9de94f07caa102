import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { ensureDfctlBuilt, freshDfctlConfig, runDfctl } from '#test/helpers/dfctl.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * dfctl and an access token that has really expired: a server whose tokens live 5 s, and a dfctl
 * told not to refresh ahead (margin 0), so the server's 401 TOKEN_EXPIRED is what makes it refresh.
 */
let server: TestServer;
let admin: SignedUpCompany;
const config = freshDfctlConfig();
const saved = () => JSON.parse(readFileSync(config, 'utf8')) as { accessToken: string; refreshToken: string };

beforeAll(async () => {
  ensureDfctlBuilt();
  server = await startTestServer({ ACCESS_TOKEN_TTL: '10s', AGENT_ENABLED: 'false' });
  admin = await signUpCompany(server.url, 'dfctl-tokens');
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('dfctl with an expired access token', { timeout: 180_000 }, () => {
  it('refreshes after the 401 TOKEN_EXPIRED, retries, and saves the new pair', async () => {
    const login = await runDfctl(['login', '--server', server.url, '--email', admin.email, '--password-stdin'], { input: admin.password, env: { DFCTL_CONFIG: config } });
    expect(login.code).toBe(0);
    const before = saved();
    // Nothing announces an expiry: the server is asked until it refuses the token for that reason.
    await eventually(
      async () => {
        const r = await http(server.url, 'GET', '/api/v1/users/me', { token: before.accessToken });
        return r.status === 401 && r.body.code === 'TOKEN_EXPIRED' ? true : undefined;
      },
      { what: 'the access token to expire', timeoutMs: 20_000 },
    );
    const who = await runDfctl(['whoami', '--json'], { env: { DFCTL_CONFIG: config, DFCTL_REFRESH_MARGIN: '0' } });
    expect(who.stderr).toBe('');
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ email: admin.email, id: admin.userId });
    const after = saved();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
  });

  it('says the sign-in has ended (exit 3) when the refresh token is refused too', async () => {
    // Ending the sign-in on the server (as a logout elsewhere does) leaves the saved pair useless.
    const current = saved();
    const ended = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: current.refreshToken } });
    expect(ended.status).toBe(200);
    const again = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: current.refreshToken } });
    expect(again.status).toBe(401);
    const r = await runDfctl(['whoami'], { env: { DFCTL_CONFIG: config, DFCTL_REFRESH_MARGIN: '3600' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^dfctl: your sign-in has ended \(.+\): run dfctl login \([A-Z_]+\)\n$/);
  });
});
