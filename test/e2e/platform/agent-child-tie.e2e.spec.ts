import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processesWithArgument } from '#agent/child-tie.js';
import { startChildServer, type ChildServer } from '#test/helpers/child-server.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http } from '#test/helpers/server.js';

/**
 * A device host killed hard (SIGKILL, as the OOM killer does) takes its browsers with it, and a host
 * started again kills the browsers an earlier run of it left behind (found by their profile directory).
 * The host here is the agent inside a server process started as `npm start` starts it.
 */
const CHROMIUM = '/usr/lib/chromium/chromium';
const HANG = 10 * 60_000;
const ADMIN = { email: 'child-tie@example.com', password: 'child-tie-password' };

const dataDir = mkdtempSync(join(tmpdir(), 'qa-child-tie-'));
const env = {
  DATA_DIR: dataDir,
  BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
  BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
  RATE_LIMIT_PER_ADDRESS: '0',
  RATE_LIMIT_PER_USER: '0',
  AGENT_CONFIG: writeAgentConfig({ nodeName: 'tie-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: 'Tied phone', profile: 'pixel-7' }] }),
};
const leftovers: number[] = [];
let running: ChildServer | null = null;

afterAll(async () => {
  if (running && running.child.exitCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const profileRootOf = async (server: ChildServer) => String((await server.waitForLog((l) => typeof l.profileRoot === 'string')).profileRoot);
const browsersUnder = (root: string) => processesWithArgument(`--user-data-dir=${root}/`);

describe.skipIf(!existsSync(CHROMIUM) || !existsSync('/usr/bin/setpriv'))('the agent\'s children live no longer than the agent', () => {
  it('a SIGKILLed host takes its Chromium with it; a restarted host kills browsers left under its profiles', { timeout: HANG }, async () => {
    running = await startChildServer(env, { startTimeoutMs: Infinity });
    const root = await profileRootOf(running);
    const token = (await http(running.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token as string;
    const device = await eventually(async () => (await http(running!.url, 'GET', '/df/api/devices', { token })).body.content?.[0] as { id: string } | undefined, {
      what: 'the browser device',
      timeoutMs: 60_000,
    });
    const session = await http(running.url, 'POST', '/df/api/sessions', { token, body: { deviceId: device.id } });
    expect(session.status).toBe(201);
    const browsers = await eventually(async () => {
      const pids = browsersUnder(root);
      return pids.length > 0 ? pids : undefined;
    }, { what: 'the session\'s Chromium to run' });

    running.child.kill('SIGKILL');
    await running.exited;
    await eventually(async () => (browsersUnder(root).length === 0 ? true : undefined), { what: `the Chromium processes ${browsers.join(', ')} to die with the host`, timeoutMs: 10_000 });

    // A browser the tie did not cover (started without setpriv) under one of this host's profiles.
    const profile = join(root, 'profile-left-behind');
    mkdirSync(profile, { recursive: true });
    const stray = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile}`, 'about:blank'], { detached: true, stdio: 'ignore' });
    stray.unref();
    leftovers.push(stray.pid!);
    // The stray and its own children; the restarted host may launch a spare browser of its own under the same root, so only these are awaited.
    const strays = await eventually(async () => {
      const pids = browsersUnder(root);
      return pids.includes(stray.pid!) ? pids : undefined;
    }, { what: 'the stray Chromium to run' });

    running = await startChildServer(env, { startTimeoutMs: Infinity });
    const reaped = await running.waitForLog((l) => Array.isArray(l.reaped) && (l.reaped as number[]).length > 0);
    expect(reaped.reaped).toContain(stray.pid);
    await eventually(async () => (browsersUnder(root).some((pid) => strays.includes(pid)) ? undefined : true), { what: 'the stray Chromium to be killed', timeoutMs: 10_000 });
    expect(existsSync(profile)).toBe(false);
    running.child.kill('SIGTERM');
    expect((await running.exited).code).toBe(0);
  });
});
