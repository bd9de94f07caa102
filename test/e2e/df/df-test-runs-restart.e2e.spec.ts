import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http } from '#test/helpers/server.js';
import { catalogueHangingSuite, haveDexTools } from '#test/helpers/test-apk.js';

/**
 * A test run whose server process is killed mid-run (SIGKILL: nothing ends it) and started again on the
 * same data directory: the new process's sweeper finds the run no process holds, ends it in error
 * saying why, ends its device's session, and the device is available again. The server is its own
 * process (`npm start`'s entry), its agent in it, the device an adbd peer behind Debian's adb.
 */
const ADMIN = { email: 'restart-runs@example.com', password: 'restart-runs-password' };
const HANG = 10 * 60_000;
let adb: AdbServer;
let peer: AdbdPeer;
let dataDir: string;
let env: Record<string, string>;
let server: ChildServer | null = null;

beforeAll(async () => {
  if (!haveDexTools()) return;
  adb = await startAdbServer();
  const started = await startPeer({ model: 'Restart Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 });
  peer = started.peer;
  await adb.connect(started.port);
  dataDir = mkdtempSync(join(tmpdir(), 'runs-restart-'));
  env = {
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'restart-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false }, devices: [] }),
  };
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await adb?.stop();
  await peer?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!haveDexTools())('a test run across a killed server process', () => {
  it('ends the run in error once the process is started again, and gives its device back', { timeout: HANG }, async () => {
    server = await startChildServer(env, { startTimeoutMs: Infinity });
    let token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const api = (method: string, path: string, body?: unknown) => http(server!.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
    const device = async () => ((await api('GET', '/devices?platform=android')).body.content as { id: string; status: string }[])[0];
    await eventually(async () => ((await device())?.status === 'available' ? true : undefined), { what: 'the device', timeoutMs: 120_000 });

    const { appVersionId: app, testVersionId: tests, hung } = await catalogueHangingSuite(server.url, token, peer);

    const created = await api('POST', '/test-runs', { name: 'killed', appVersionId: app, testVersionId: tests, devices: { platform: 'android' }, tests: { classes: [hung.className] }, strategy: { testTimeoutSeconds: 600 } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const runId = created.body.id as string;
    await eventually(async () => {
      const r = (await api('GET', `/test-runs/${runId}`)).body;
      return r.shards?.[0]?.currentTest === `${hung.className}#${hung.methodName}` ? true : undefined;
    }, { what: 'the hanging test to run', timeoutMs: 60_000 });
    expect((await device())!.status).not.toBe('available');

    server.child.kill('SIGKILL');
    await server.exited;
    server = await startChildServer(env, { startTimeoutMs: Infinity });
    token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;

    const run = await eventually(async () => {
      const r = (await api('GET', `/test-runs/${runId}`)).body;
      return r.state !== 'running' && r.state !== 'queued' ? r : undefined;
    }, { what: 'the orphaned run to end', timeoutMs: 120_000 });
    expect(run.state).toBe('error');
    expect(run.reason).toMatch(/stopped before it ended/);
    const sessionId = run.shards[0].sessionId as string;
    const session = await eventually(async () => {
      const s = (await api('GET', `/sessions/${sessionId}`)).body;
      return s.endedAt ? s : undefined;
    }, { what: 'the shard session to end', timeoutMs: 60_000 });
    // Ended by whichever came first: the restarted host's reconciliation (`device-reset`), or the run's
    // sweeper or the busy-device watchdog (nothing vouches for the shard any more: `abandoned`).
    expect(['device-reset', 'abandoned']).toContain(session.endReason);
    await eventually(async () => ((await device())?.status === 'available' ? true : undefined), { what: 'the device available again', timeoutMs: 60_000 });
  });
});
