import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { ensureDfctlBuilt, freshDfctlConfig, runDfctl, spawnDfctl, type SpawnedDfctl } from '#test/helpers/dfctl.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * dfctl's tunnels end to end: the built dfctl listening on loopback, every connection a
 * `/df/debug-tunnel` WebSocket through the started server and the agent's data plane to the adbd
 * test device (behind the agent's own adb server). What a local client sends must come back from
 * the device's echo port, its JDWP process, or its adbd (reached by a second, "user's own" adb).
 */
const ADMIN = { email: 'dfctl-tunnel@example.com', password: 'tunnel-password-1' };
const ECHO_PORT = 7100;
let server: TestServer;
let farmAdb: AdbServer;
let userAdb: AdbServer;
let peer: AdbdPeer;
let deviceId: string;
const config = freshDfctlConfig();
const env = (extra: Record<string, string> = {}) => ({ DFCTL_CONFIG: config, ...extra });
const running: SpawnedDfctl[] = [];
let token: string;

beforeAll(async () => {
  ensureDfctlBuilt();
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Tunnel Phone', release: '14' }));
  peer.echoPort(ECHO_PORT);
  peer.addJdwpProcess(4242, 'com.example.debuggable');
  farmAdb = await startAdbServer();
  await farmAdb.connect(port);
  userAdb = await startAdbServer();
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'tunnel-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: farmAdb.port }, devices: [] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  deviceId = await eventually(async () => (await http(server.url, 'GET', '/df/api/devices?platform=android', { token })).body.content?.[0]?.id as string | undefined, {
    what: 'the android device',
    timeoutMs: 30_000,
  });
  const login = await runDfctl(['login', '--server', server.url, '--email', ADMIN.email, '--password-stdin'], { input: ADMIN.password, env: env() });
  expect(login.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop()));
  // The user's adb first: it would keep dialling a tunnel while the server stops.
  await userAdb?.stop();
  await server?.stop();
  await farmAdb?.stop();
  await peer?.close();
});

function start(args: string[], extra: Record<string, string> = {}): SpawnedDfctl {
  const d = spawnDfctl(args, { env: env(extra) });
  running.push(d);
  return d;
}

async function openSession(): Promise<string> {
  const r = await runDfctl(['open', deviceId, '--name', 'tunnels'], { env: env(), timeoutMs: 90_000 });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

function dial(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Reads exactly `length` bytes (fails when the socket closes first). */
function readBytes(socket: Socket, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let have = 0;
    const onData = (c: Buffer) => {
      chunks.push(c);
      have += c.length;
      if (have >= length) {
        socket.off('data', onData);
        resolve(Buffer.concat(chunks));
      }
    };
    socket.on('data', onData);
    socket.once('close', () => have < length && reject(new Error(`closed after ${have} of ${length} bytes`)));
  });
}

describe('dfctl forward', { timeout: 180_000 }, () => {
  let sessionId: string;
  beforeAll(async () => {
    sessionId = await openSession();
  }, 90_000);

  it('carries each local connection to the device port, bytes intact both ways, several at once', async () => {
    const d = start(['forward', sessionId, '0:7100']);
    const line = await d.waitForLine(/^Forwarding 127\.0\.0\.1:\d+ to tcp_forward 7100 of session /);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
    // The grant was asked for once, on the session's timeline.
    const caps = await http(server.url, 'GET', `/df/api/sessions/${sessionId}/debug-capabilities`, { token });
    expect(caps.body.protocols.find((p: { name: string }) => p.name === 'tcp_forward').granted).toBe(true);

    const big = randomBytes(4 * 1024 * 1024);
    const a = await dial(port);
    const echoedA = readBytes(a, big.length);
    a.write(big);
    const small = await Promise.all(
      [1, 2, 3].map(async () => {
        const s = await dial(port);
        const payload = randomBytes(100_000);
        const echoed = readBytes(s, payload.length);
        s.write(payload);
        const got = await echoed;
        s.end();
        return got.equals(payload);
      }),
    );
    expect(small).toEqual([true, true, true]);
    expect((await echoedA).equals(big)).toBe(true);
    a.end();
    expect(peer.record.tcpConnections.filter((p) => p === ECHO_PORT).length).toBeGreaterThanOrEqual(4);
    expect((await d.stop()).code).toBe(0);
  });

  it('forwards a JDWP process: the handshake comes back from the device', async () => {
    const d = start(['forward', sessionId, '0:jdwp:4242', '--json']);
    const line = await d.waitForLine(/^\{/);
    const announced = JSON.parse(line) as { sessionId: string; protocol: string; port: number; address: string };
    expect(announced).toMatchObject({ sessionId, protocol: 'jdwp/4242', address: `127.0.0.1:${announced.port}` });
    const s = await dial(announced.port);
    const handshake = readBytes(s, 14);
    s.write('JDWP-Handshake');
    expect((await handshake).toString('latin1')).toBe('JDWP-Handshake');
    s.end();
    await eventually(async () => (peer.record.jdwp.find((j) => j.pid === 4242 && j.handshake) ? true : undefined), { what: 'the JDWP handshake on the device' });
    expect((await d.stop()).code).toBe(0);
  });

  it('exits 1 with the server\'s reason when the device refuses the stream', async () => {
    const d = start(['forward', sessionId, '0:7999']);
    const line = await d.waitForLine(/^Forwarding 127\.0\.0\.1:\d+/);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
    const s = await dial(port);
    s.on('error', () => undefined);
    const result = await d.exited;
    expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/^dfctl: .+ \([A-Z_]+\)\n$/) });
  });

  it('refuses a wrong forward with exit 2 and an unknown session with exit 4', async () => {
    expect((await runDfctl(['forward', sessionId, '7100'], { env: env() })).code).toBe(2);
    expect((await runDfctl(['forward', sessionId, '0:jdwp:x'], { env: env() })).code).toBe(2);
    const unknown = await runDfctl(['forward', '00000000-0000-4000-8000-000000000000', '0:7100'], { env: env() });
    expect(unknown.code).toBe(4);
  });

  it('says the session ended and exits 0 when the server closes an open stream at its end', async () => {
    // The session check at an interval is pushed far out: the stream's close must be what ends it.
    const d = start(['forward', sessionId, '0:7100'], { DFCTL_POLL_MS: '600000' });
    const line = await d.waitForLine(/^Forwarding 127\.0\.0\.1:\d+/);
    const s = await dial(Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]));
    s.on('error', () => undefined);
    const echoed = readBytes(s, 5);
    s.write('hello');
    expect((await echoed).toString()).toBe('hello');
    expect((await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token })).status).toBe(200);
    const result = await d.exited;
    expect(result).toMatchObject({ code: 0, stderr: expect.stringMatching(new RegExp(`^dfctl: session ${sessionId} has ended`, 'm')) });
    // An ended session opens no tunnel.
    const late = await runDfctl(['forward', sessionId, '0:7100'], { env: env() });
    expect(late.code).toBe(1);
    expect(late.stderr).toBe(`dfctl: session ${sessionId} is ended (SESSION_NOT_ACTIVE)\n`);
  });
});

describe('dfctl adb', { timeout: 180_000 }, () => {
  it("puts the device in the user's own adb: adb connect, adb devices, adb shell; exits 0 when the session ends", async () => {
    const sessionId = await openSession();
    const d = start(['adb', sessionId, '--connect', '--adb-port', String(userAdb.port)], { DFCTL_POLL_MS: '200' });
    const line = await d.waitForLine(/^adb connect 127\.0\.0\.1:\d+$/);
    const serial = line.slice('adb connect '.length);
    await d.waitForLine(/connected to 127\.0\.0\.1:\d+/);
    const listed = await eventually(async () => {
      const out = await userAdb.adb('devices');
      return new RegExp(`^${serial.replace(/\./g, '\\.')}\\s+device$`, 'm').test(out) ? out : undefined;
    }, { what: `${serial} listed as a device by the user's adb`, timeoutMs: 20_000 });
    expect(listed).toContain(serial);
    const said = await userAdb.adb('-s', serial, 'shell', 'echo', 'through-the-farm');
    expect(said).toContain('through-the-farm');
    expect(peer.record.commands.some((c) => c.includes('echo through-the-farm'))).toBe(true);

    // No stream is closed by the server here (adb keeps its own); the session check notices the end.
    expect((await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token })).status).toBe(200);
    const result = await d.exited;
    expect(result).toMatchObject({ code: 0, stderr: expect.stringMatching(new RegExp(`dfctl: session ${sessionId} has ended`)) });
    // --connect disconnects again on the way out.
    expect(await userAdb.adb('devices')).not.toContain(serial);
  });
});
