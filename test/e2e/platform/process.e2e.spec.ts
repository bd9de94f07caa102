import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { http, errorCode } from '#test/helpers/server.js';

// Each test starts whole server processes (a new embedded database each, seconds apiece) and waits
// for what it needs: the "listening" line, a request's log line, the process's exit. None of those
// waits has a clock of its own (a process that dies ends the wait at once), so a busy machine only
// makes the tests slower. The time-out below is a safety net against a hang, not a measure of speed.
const HANG = 10 * 60_000;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ADMIN = { email: 'proc-admin@example.com', password: 'process-password' };

/** A server process on a new data directory (or the one given), waited for however long it takes to listen. */
function start(env: Record<string, string>): Promise<ChildServer> {
  return startChildServer(env, { startTimeoutMs: Infinity });
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'qa-proc-'));
  dirs.push(dir);
  return dir;
}

describe('the npm start process on the embedded defaults', () => {
  it('keeps acknowledged writes and revocations across a SIGKILL and a restart', { timeout: HANG }, async () => {
    const env = { DATA_DIR: dataDir(), BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password };

    const first = await start(env);
    const founder = { email: 'kept@example.com', password: 'kept-password', name: 'K', companyName: 'Kept' };
    expect((await http(first.url, 'POST', '/api/v1/auth/signup', { body: founder })).status).toBe(201);
    const loggedOut = (await http(first.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    expect((await http(first.url, 'POST', '/api/v1/auth/logout', { token: loggedOut.token })).status).toBe(204);
    const kept = (await http(first.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body;
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start(env);
    try {
      expect((await http(second.url, 'POST', '/api/v1/auth/login', { body: { email: founder.email, password: founder.password } })).status).toBe(200);
      // The same signing key, the same blocklist and ended sessions, the same refresh tokens.
      expect((await http(second.url, 'GET', '/df/api/client-config', { token: kept.token })).status).toBe(200);
      expect((await http(second.url, 'GET', '/df/api/client-config', { token: loggedOut.token })).status).toBe(401);
      expect((await http(second.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: kept.refreshToken } })).status).toBe(200);
      expect((await http(second.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: loggedOut.refreshToken } })).status).toBe(401);
      // The bootstrap administrator was created once, not again.
      const again = await http(second.url, 'POST', '/api/v1/auth/signup', { body: { ...ADMIN, name: 'x', companyName: 'Again' } });
      expect(again.status).toBe(409);
      expect(errorCode(again)).toBe('EMAIL_TAKEN');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('on SIGTERM finishes the request in flight, then exits 0', { timeout: HANG }, async () => {
    const server = await start({ DATA_DIR: dataDir(), BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password });
    const pending = http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN, headers: { 'x-request-id': 'in-flight-1' } });
    // The request has reached the server (it logged it) before the signal is sent, however slow that was.
    await server.waitForLog((l) => l.requestId === 'in-flight-1' && l.msg === 'incoming request', Infinity);
    server.child.kill('SIGTERM');
    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.body.token).toBeTruthy();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('refuses to start on a bad configuration value, naming the variable', { timeout: HANG }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir(), PORT: 'eighty', ACCESS_TOKEN_TTL: 'forever' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    // It exits by itself; waiting for that (and its last words on stderr), not a clock, is what the test needs.
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('ACCESS_TOKEN_TTL');
  });
});
