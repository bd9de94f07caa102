import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { connectViewer, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http } from '#test/helpers/server.js';

/**
 * A server process told to stop (SIGTERM) stops: cleanly with exit code 0 while sessions, viewers and
 * bookings are open; and when a part never finishes, at the `SHUTDOWN_GRACE` deadline, logging what
 * was still open. A second signal during the shutdown exits at once.
 */
const HANG = 10 * 60_000;
/** What a process may take past its deadline to exit (logging, the exit itself on a busy machine). */
const MARGIN_MS = 5_000;
const ADMIN = { email: 'shutdown@example.com', password: 'shutdown-password' };

const dirs: string[] = [];
const children: ChildServer[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.child.exitCode === null && c.child.signalCode === null) {
      c.child.kill('SIGKILL');
      await c.exited;
    }
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(env: Record<string, string>, entry?: string): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-shutdown-'));
  dirs.push(dir);
  const server = await startChildServer({ DATA_DIR: dir, BOOTSTRAP_ADMIN_EMAIL: ADMIN.email, BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password, ...env }, { startTimeoutMs: Infinity, ...(entry ? { entry } : {}) });
  children.push(server);
  return server;
}

/** Sends `signal` once the process has logged that it is up, and measures until it exits. */
async function stopWith(server: ChildServer, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const sent = Date.now();
  server.child.kill(signal);
  const exit = await server.exited;
  return { ...exit, ms: Date.now() - sent };
}

describe('a server process told to stop', () => {
  it('exits 0 within SHUTDOWN_GRACE with a session, a viewer and a booking open', { timeout: HANG }, async () => {
    const graceMs = 10_000;
    const server = await start({
      SHUTDOWN_GRACE: `${graceMs}ms`,
      AGENT_CONFIG: writeAgentConfig({ nodeName: 'shutdown-node', heartbeatMs: 500, devices: [{ provider: 'simulated', name: 'Sim A' }, { provider: 'simulated', name: 'Sim B' }] }),
    });
    const token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
    const [a, b] = await eventually(async () => {
      const list = (await api('GET', '/devices?sortBy=name')).body.content as { id: string }[] | undefined;
      return list?.length === 2 ? list : undefined;
    }, { what: 'two devices', timeoutMs: 60_000 });
    const session = await api('POST', '/sessions', { deviceId: a!.id, name: 'open at shutdown' });
    expect(session.status).toBe(201);
    const viewer = connectViewer(`${server.url.replace('http', 'ws')}/df/ws/sessions/${session.body.id}?access_token=${token}`);
    await viewer.framesAtLeast(1, 30_000);
    const booking = await api('POST', '/reservations', { deviceId: b!.id, startAt: new Date(Date.now() + 3_600_000).toISOString(), endAt: new Date(Date.now() + 7_200_000).toISOString() });
    expect(booking.status).toBe(201);

    const exit = await stopWith(server, 'SIGTERM');
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(graceMs + MARGIN_MS);
    expect(server.logs.some((l) => l.msg === 'shut down')).toBe(true);
    await viewer.closed;
  });

  it('at the SHUTDOWN_GRACE deadline exits anyway, naming the part and the handles still open', { timeout: HANG }, async () => {
    const graceMs = 2_000;
    const server = await start({ SHUTDOWN_GRACE: `${graceMs}ms`, AGENT_ENABLED: 'false', STUCK_PART: 'handle' }, 'test/helpers/stuck-shutdown-server.ts');
    const exit = await stopWith(server, 'SIGTERM');
    expect(exit.code).toBe(1);
    expect(exit.ms).toBeGreaterThanOrEqual(graceMs - 100);
    expect(exit.ms).toBeLessThan(graceMs + MARGIN_MS);
    const line = server.logs.find((l) => l.msg === 'shutdown did not finish within SHUTDOWN_GRACE; exiting anyway');
    expect(line).toBeDefined();
    expect(line!.waitingFor).toEqual(['stuck test part']);
    expect(line!.activeResources).toContain('Timeout');
  });

  it('a second SIGTERM during the shutdown exits at once', { timeout: HANG }, async () => {
    const server = await start({ SHUTDOWN_GRACE: '120s', AGENT_ENABLED: 'false', STUCK_PART: 'handle' }, 'test/helpers/stuck-shutdown-server.ts');
    server.child.kill('SIGTERM');
    await server.waitForLog((l) => l.msg === 'shutting down');
    const exit = await stopWith(server, 'SIGTERM');
    expect(exit.code).toBe(1);
    expect(exit.ms).toBeLessThan(MARGIN_MS);
    expect(server.logs.find((l) => l.msg === 'second signal during shutdown; exiting now')?.waitingFor).toEqual(['stuck test part']);
  });

  it('a shutdown stuck in synchronous code is ended by the watchdog past the deadline', { timeout: HANG }, async () => {
    const graceMs = 1_000;
    const server = await start({ SHUTDOWN_GRACE: `${graceMs}ms`, AGENT_ENABLED: 'false', STUCK_PART: 'busy' }, 'test/helpers/stuck-shutdown-server.ts');
    const exit = await stopWith(server, 'SIGTERM');
    expect(exit.signal).toBe('SIGKILL');
    expect(exit.ms).toBeLessThan(graceMs + 5_000 + MARGIN_MS);
    expect(server.stderr()).toContain('shutdown watchdog: the event loop is stuck');
  });
});
