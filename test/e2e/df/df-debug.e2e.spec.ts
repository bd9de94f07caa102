import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { referenceApks } from '#test/helpers/apps.js';
import { ensureDfctlBuilt, freshDfctlConfig, runDfctl, spawnDfctl, type SpawnedDfctl } from '#test/helpers/dfctl.js';
import { connectViewer, eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Remote debugging end to end: the adbd test device behind the agent's adb server (Debian's adb),
 * grants through the API, and the `/df/debug-tunnel` WebSocket carrying device TCP ports and JDWP
 * streams through the gateway and the agent's data plane to the device. Assertions are on the bytes
 * that come back and on the device's own record.
 */
const ADMIN = { email: 'debug-admin@example.com', password: 'debug-password-1' };
const ECHO_PORT = 7100;
let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let token: string;
let sessionId: string;

beforeAll(async () => {
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Debug Phone', release: '14' }));
  peer.addJdwpProcess(4242, 'com.example.debuggable');
  peer.addJdwpProcess(4343, 'com.example.other');
  peer.echoPort(ECHO_PORT);
  adb = await startAdbServer();
  await adb.connect(port);
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'debug-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [{ provider: 'browser', name: 'Debug Chromium', profile: 'desktop' }] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  const deviceId = await eventually(async () => (await http(server.url, 'GET', '/df/api/devices?platform=android', { token })).body.content?.[0]?.id as string | undefined, {
    what: 'the android device',
    timeoutMs: 30_000,
  });
  const created = await http(server.url, 'POST', '/df/api/sessions', { token, body: { deviceId, name: 'debugging' } });
  expect(created.status).toBe(201);
  sessionId = created.body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await adb?.stop();
  await peer?.close();
});

const api = (method: string, path: string, body?: unknown, as = token) => http(server.url, method, `/df/api${path}`, { token: as, ...(body !== undefined ? { body } : {}) });
const wsUrl = (path: string) => `${server.url.replace(/^http/, 'ws')}${path}`;

/** Opens a tunnel; resolves with the open socket, or rejects with the refusal's status and code. */
function tunnel(path: string, as = token): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(`/df/debug-tunnel/${sessionId}${path}`), { headers: { authorization: `Bearer ${as}` } });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, code: JSON.parse(body || '{}').code as string })));
    });
    ws.once('error', (err) => reject(err));
  });
}

/** Collects a socket's binary messages until `length` bytes arrived. */
function read(ws: WebSocket, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let have = 0;
    const onMessage = (data: Buffer) => {
      chunks.push(data);
      have += data.length;
      if (have >= length) {
        ws.off('message', onMessage);
        resolve(Buffer.concat(chunks));
      }
    };
    ws.on('message', onMessage);
    ws.once('close', (code) => {
      if (have < length) reject(new Error(`closed (${code}) after ${have} of ${length} bytes`));
    });
  });
}

const closed = (ws: WebSocket) => new Promise<number>((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve(-1) : ws.once('close', (code) => resolve(code))));

describe('debug capabilities', () => {
  it('lists the android protocols, available and not yet granted', async () => {
    const r = await api('GET', `/sessions/${sessionId}/debug-capabilities`);
    expect(r.status).toBe(200);
    expect(r.body.platform).toBe('android');
    expect(r.body.protocols.map((p: { name: string }) => p.name)).toEqual(['adb', 'jdwp', 'tcp_forward', 'cdp']);
    for (const p of r.body.protocols) expect(p.granted).toBe(false);
    expect(r.body.protocols.filter((p: { available: boolean }) => p.available).map((p: { name: string }) => p.name)).toEqual(['adb', 'jdwp', 'tcp_forward', 'cdp']);
  });

  it('refuses a tunnel before access is granted', async () => {
    await expect(tunnel(`/tcp_forward/${ECHO_PORT}`)).rejects.toMatchObject({ status: 403, code: 'DEBUG_NOT_GRANTED' });
  });

  it('refuses unknown protocols and malformed targets with a 400', async () => {
    expect(errorCode(await api('POST', `/sessions/${sessionId}/debug-capabilities`, { protocols: ['telnet'] }))).toBe('VALIDATION_FAILED');
    await expect(tunnel('/jdwp')).rejects.toMatchObject({ status: 400 });
    await expect(tunnel('/adb/extra')).rejects.toMatchObject({ status: 400 });
  });

  it('grants requested protocols, on the timeline and in the audit history', async () => {
    const r = await api('POST', `/sessions/${sessionId}/debug-capabilities`, { protocols: ['adb', 'jdwp', 'tcp_forward'] });
    expect(r.status).toBe(200);
    expect(r.body.protocols.filter((p: { granted: boolean }) => p.granted).map((p: { name: string }) => p.name)).toEqual(['adb', 'jdwp', 'tcp_forward']);
    const timeline = await api('GET', `/sessions/${sessionId}/activities?kind=debug`);
    expect(timeline.body.content).toHaveLength(1);
    expect(timeline.body.content[0].detail).toMatchObject({ event: 'granted', protocols: ['adb', 'jdwp', 'tcp_forward'] });
    const audit = await http(server.url, 'GET', `/api/v1/audit/events?sessionId=${sessionId}`, { token });
    expect(audit.status).toBe(200);
    const types = (audit.body.content ?? audit.body.items ?? audit.body).map((e: { eventType: string }) => e.eventType);
    expect(types).toContain('DeviceSessionDebugAccessGranted');
  });

  it('lists the debuggable processes with their packages, and the device itself', async () => {
    const r = await api('GET', `/sessions/${sessionId}/debug-targets`);
    expect(r.status).toBe(200);
    expect(r.body.targets).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'device', protocol: 'adb', tunnelPath: `/df/debug-tunnel/${sessionId}/adb` }),
        expect.objectContaining({ kind: 'process', pid: 4242, package: 'com.example.debuggable', protocol: 'jdwp', tunnelPath: `/df/debug-tunnel/${sessionId}/jdwp/4242` }),
        expect.objectContaining({ kind: 'process', pid: 4343, package: 'com.example.other', protocol: 'jdwp' }),
      ]),
    );
  });

  it('is 404 for another company', async () => {
    const stranger = await signUpCompany(server.url, 'debug-stranger');
    expect((await api('GET', `/sessions/${sessionId}/debug-capabilities`, undefined, stranger.token)).status).toBe(404);
    expect((await api('GET', `/sessions/${sessionId}/debug-targets`, undefined, stranger.token)).status).toBe(404);
    await expect(tunnel(`/tcp_forward/${ECHO_PORT}`, stranger.token)).rejects.toMatchObject({ status: 404 });
  });
});

describe('the debug tunnel', () => {
  it('carries a device TCP port both ways', async () => {
    const ws = await tunnel(`/tcp_forward/${ECHO_PORT}`);
    const payload = randomBytes(200_000);
    const echoed = read(ws, payload.length);
    ws.send(payload);
    expect((await echoed).equals(payload)).toBe(true);
    ws.close();
    expect(peer.record.tcpConnections).toContain(ECHO_PORT);
  });

  it('carries 50 parallel streams, each with its own bytes intact', async () => {
    const streams = await Promise.all(Array.from({ length: 50 }, () => tunnel(`/tcp_forward/${ECHO_PORT}`)));
    const payloads = streams.map(() => randomBytes(32 * 1024 + Math.floor(Math.random() * 32 * 1024)));
    const echoes = streams.map((ws, i) => read(ws, payloads[i]!.length));
    streams.forEach((ws, i) => {
      const p = payloads[i]!;
      // In pieces, so the streams interleave on the way.
      for (let at = 0; at < p.length; at += 8 * 1024) ws.send(p.subarray(at, at + 8 * 1024));
    });
    const got = await Promise.all(echoes);
    got.forEach((bytes, i) => expect(bytes.equals(payloads[i]!)).toBe(true));
    await Promise.all(streams.map((ws) => (ws.close(), closed(ws))));
  });

  it('refuses a device port nothing listens on', async () => {
    await expect(tunnel('/tcp_forward/7999')).rejects.toMatchObject({ status: 502 });
  });

  it('forwards a JDWP process: the handshake both ways, then a command answered', async () => {
    const ws = await tunnel('/jdwp/4242');
    const handshake = read(ws, 14);
    ws.send(Buffer.from('JDWP-Handshake'));
    expect((await handshake).toString('latin1')).toBe('JDWP-Handshake');
    // VirtualMachine.Version (command set 1, command 1), id 7.
    const command = Buffer.alloc(11);
    command.writeUInt32BE(11, 0);
    command.writeUInt32BE(7, 4);
    command[9] = 1;
    command[10] = 1;
    const answer = read(ws, 11);
    ws.send(command);
    const packet = await answer;
    expect(packet.readUInt32BE(4)).toBe(7);
    expect(packet[8]).toBe(0x80);
    expect(packet.readUInt16BE(9)).toBe(0);
    const descriptionLength = packet.readUInt32BE(11);
    expect(packet.toString('utf8', 15, 15 + descriptionLength)).toContain('Android 14');
    ws.close();
    expect(peer.record.jdwp.find((j) => j.pid === 4242)).toMatchObject({ handshake: true, commands: [{ commandSet: 1, command: 1 }] });
  });

  it('refuses a process that is not debuggable', async () => {
    await expect(tunnel('/jdwp/999')).rejects.toMatchObject({ status: 502 });
  });
});

describe('adb through dfctl and the tunnel', () => {
  let desk: AdbServer;
  let dfctl: SpawnedDfctl;
  let serial: string;
  let config: string;

  beforeAll(async () => {
    // The desk: its own adb server, and dfctl signed in, listening on a local port for that adb.
    desk = await startAdbServer();
    ensureDfctlBuilt();
    config = freshDfctlConfig();
    const login = await runDfctl(['login', '--server', server.url, '--email', ADMIN.email, '--password-stdin'], { input: ADMIN.password, env: { DFCTL_CONFIG: config } });
    expect(login.code).toBe(0);
    dfctl = spawnDfctl(['adb', sessionId], { env: { DFCTL_CONFIG: config } });
    const line = await dfctl.waitForLine(/^adb connect 127\.0\.0\.1:\d+$/);
    const port = Number(line.split(':').at(-1));
    // A new adb key is offered to the device and accepted, as on a phone whose user taps "Allow": adb
    // reports the first attempt as "failed to authenticate" and the device comes online right after.
    const out = await desk.adb('connect', `127.0.0.1:${port}`);
    expect(out).toMatch(/connected to|failed to authenticate/);
    serial = `127.0.0.1:${port}`;
    await eventually(async () => ((await desk.adb('devices')).includes(`${serial}\tdevice`) ? true : undefined), { what: 'the remote device online on the desk', timeoutMs: 20_000 });
  }, 90_000);

  afterAll(async () => {
    await desk?.stop();
    await dfctl?.stop();
  });

  it('lists the targets with the dfctl command for each (`dfctl targets`)', async () => {
    const text = await runDfctl(['targets', sessionId], { env: { DFCTL_CONFIG: config } });
    expect(text.code, text.stderr).toBe(0);
    const line = (pid: string) => text.stdout.split('\n').find((l) => l.includes(` ${pid} `));
    expect(line('4242')).toMatch(new RegExp(`process\\s+.*com\\.example\\.debuggable\\s+4242\\s+jdwp\\s+dfctl forward ${sessionId} 8700:jdwp:4242$`));
    expect(text.stdout).toMatch(new RegExp(`^device\\s.*\\sadb\\s+dfctl adb ${sessionId}$`, 'm'));
    const json = await runDfctl(['targets', sessionId, '--json'], { env: { DFCTL_CONFIG: config } });
    expect(JSON.parse(json.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'process', pid: 4343, package: 'com.example.other', protocol: 'jdwp', command: `dfctl forward ${sessionId} 8700:jdwp:4343` }),
        expect.objectContaining({ kind: 'device', protocol: 'adb', command: `dfctl adb ${sessionId}` }),
      ]),
    );
  });

  it('runs a shell command', async () => {
    expect((await desk.adb('-s', serial, 'shell', 'echo', 'hello', 'desk')).trim()).toBe('hello desk');
  });

  it('pushes and pulls 10 MB with matching checksums', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'df-debug-'));
    const bytes = randomBytes(10 * 1024 * 1024);
    writeFileSync(join(dir, 'big.bin'), bytes);
    await desk.adb('-s', serial, 'push', join(dir, 'big.bin'), '/sdcard/Download/big.bin');
    expect(createHash('sha256').update(peer.files.get('/sdcard/Download/big.bin')!.data).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    await desk.adb('-s', serial, 'pull', '/sdcard/Download/big.bin', join(dir, 'back.bin'));
    expect(createHash('sha256').update(readFileSync(join(dir, 'back.bin'))).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
  }, 120_000);

  it('installs a real APK', async () => {
    const apk = referenceApks().settings;
    const out = await desk.adb('-s', serial, 'install', apk);
    expect(out).toMatch(/Success/);
    expect(peer.record.installs.at(-1)).toMatchObject({ packageName: 'io.appium.settings', sha256: createHash('sha256').update(readFileSync(apk)).digest('hex') });
  }, 120_000);

  it('lists the JDWP processes', async () => {
    const out = await desk.adb('-s', serial, 'jdwp');
    expect(out.trim().split(/\s+/).map(Number).sort()).toEqual([4242, 4343]);
  });
});

describe('the terminal', () => {
  it('runs what is typed in a shell on the device and shows its output', async () => {
    const viewer = connectViewer(wsUrl(`/df/ws/sessions/${sessionId}?access_token=${token}`));
    const text = () => viewer.messages.filter((m) => m.type === 'terminal.output').map((m) => String(m.data)).join('');
    await viewer.next((m) => m.type === 'hello');
    viewer.send({ type: 'terminal.open', cols: 100, rows: 30 });
    await viewer.next((m) => m.type === 'terminal.opened');
    await viewer.next(() => text().includes('$ '));
    viewer.send({ type: 'terminal.input', data: 'echo hi\r' });
    await viewer.next(() => /\r\nhi\r\n/.test(text()));
    expect(text()).toContain('echo hi');
    expect(peer.record.commands).toContain('echo hi');
    viewer.send({ type: 'terminal.close' });
    await viewer.next((m) => m.type === 'terminal.closed');
    viewer.socket.close();
  });
});

describe('a browser device', () => {
  it('offers its DevTools endpoint as one raw stream: cdp', async () => {
    const deviceId = await eventually(async () => (await api('GET', '/devices?platform=web')).body.content?.[0]?.id as string | undefined, { what: 'the browser device' });
    const created = await api('POST', '/sessions', { deviceId, name: 'browser debugging' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const caps = await api('GET', `/sessions/${id}/debug-capabilities`);
    expect(caps.body).toEqual({ platform: 'web', protocols: [{ name: 'cdp', available: true, granted: false }] });
    expect((await api('POST', `/sessions/${id}/debug-capabilities`, { protocols: ['adb'] })).body.code).toBe('DEBUG_PROTOCOL_UNAVAILABLE');
    expect((await api('POST', `/sessions/${id}/debug-capabilities`, { protocols: ['cdp'] })).status).toBe(200);
    const targets = await api('GET', `/sessions/${id}/debug-targets`);
    expect(targets.body.targets.length).toBeGreaterThan(0);
    expect(targets.body.targets[0]).toMatchObject({ kind: 'page', protocol: 'cdp', tunnelPath: `/df/debug-tunnel/${id}/cdp/${targets.body.targets[0].id}` });
    const ws = await new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(wsUrl(`/df/debug-tunnel/${id}/cdp`), { headers: { authorization: `Bearer ${token}` } });
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_q, res) => reject(new Error(`refused ${res.statusCode}`)));
    });
    // Chromium's own HTTP endpoint, spoken over the raw stream as a desk's DevTools would.
    let answer = '';
    const done = new Promise<void>((resolve) => ws.on('message', (data: Buffer) => ((answer += data.toString('utf8')), /"Browser"[\s\S]*\}/.test(answer) && resolve())));
    ws.send(Buffer.from('GET /json/version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    await done;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toMatch(/"Browser": "(Headless)?Chrom/);
    ws.close();
    expect((await api('DELETE', `/sessions/${id}`)).status).toBe(200);
  });
});

describe('withdrawing access and ending the session', () => {
  it('closes an open stream when access is withdrawn, and refuses new ones', async () => {
    const ws = await tunnel(`/tcp_forward/${ECHO_PORT}`);
    const code = closed(ws);
    expect((await api('DELETE', `/sessions/${sessionId}/debug-capabilities?protocol=tcp_forward`)).status).toBe(204);
    expect(await code).toBe(4403);
    await expect(tunnel(`/tcp_forward/${ECHO_PORT}`)).rejects.toMatchObject({ status: 403, code: 'DEBUG_NOT_GRANTED' });
    const caps = await api('GET', `/sessions/${sessionId}/debug-capabilities`);
    expect(caps.body.protocols.find((p: { name: string }) => p.name === 'tcp_forward').granted).toBe(false);
    expect(caps.body.protocols.find((p: { name: string }) => p.name === 'jdwp').granted).toBe(true);
  });

  it('closes open streams when the session ends, and refuses new ones', async () => {
    const ws = await tunnel('/jdwp/4343');
    const code = closed(ws);
    expect((await api('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
    expect(await code).toBe(4409);
    await expect(tunnel('/jdwp/4343')).rejects.toMatchObject({ status: 409, code: 'SESSION_NOT_ACTIVE' });
  });
});
