import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer } from '#test/helpers/child-server.js';
import { http, errorCode } from '#test/helpers/server.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ADMIN = { email: 'proc-admin@example.com', password: 'process-password' };

describe('the npm start process on the embedded defaults', () => {
  it('keeps acknowledged writes and revocations across a SIGKILL and a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qa-proc-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password };

    const first = await startChildServer(env);
    const founder = { email: 'kept@example.com', password: 'kept-password', name: 'K', companyName: 'Kept' };
    expect((await http(first.url, 'POST', '/api/v1/auth/signup', { body: founder })).status).toBe(201);
    const loggedOut = (await http(first.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    expect((await http(first.url, 'POST', '/api/v1/auth/logout', { token: loggedOut.token })).status).toBe(204);
    const kept = (await http(first.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startChildServer(env);
    try {
      expect((await http(second.url, 'POST', '/api/v1/auth/login', { body: { email: founder.email, password: founder.password } })).status).toBe(200);
      // The same signing key, the same blocklist, the same refresh tokens.
      expect((await http(second.url, 'GET', '/df/api/client-config', { token: kept.token })).status).toBe(200);
      expect((await http(second.url, 'GET', '/df/api/client-config', { token: loggedOut.token })).status).toBe(401);
      expect((await http(second.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: kept.refreshToken } })).status).toBe(200);
      // The bootstrap administrator was created once, not again.
      const again = await http(second.url, 'POST', '/api/v1/auth/signup', { body: { ...ADMIN, name: 'x', companyName: 'Again' } });
      expect(again.status).toBe(409);
      expect(errorCode(again)).toBe('EMAIL_TAKEN');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qa-proc-'));
    dirs.push(dataDir);
    const server = await startChildServer({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password });
    const pending = http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN, headers: { 'x-request-id': 'in-flight-1' } });
    await server.waitForLog((l) => l.requestId === 'in-flight-1' && l.msg === 'incoming request');
    server.child.kill('SIGTERM');
    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.body.token).toBeTruthy();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('refuses to start on a bad configuration value, naming the variable', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qa-proc-'));
    dirs.push(dataDir);
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: 'eighty', ACCESS_TOKEN_TTL: 'forever' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('PORT');
    expect(r.stderr).toContain('ACCESS_TOKEN_TTL');
  });
});
