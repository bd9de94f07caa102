import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { ensureDfctlBuilt, freshDfctlConfig, runDfctl, spawnDfctl } from '#test/helpers/dfctl.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * dfctl end to end: the built bundle run as a subprocess against the started server (its in-process
 * agent's browser devices), and installed from the server's own manifest into an empty directory.
 */
const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
let admin: SignedUpCompany;
/** The config file of the signed-in dfctl most tests use. */
let config: string;
let deviceId: string;

const env = () => ({ DFCTL_CONFIG: config });
const saved = () => JSON.parse(readFileSync(config, 'utf8')) as { server: string; accessToken?: string; refreshToken?: string; workspaceId?: number; login?: string };
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { wid: number; exp: number };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  ensureDfctlBuilt();
  server = await startTestServer();
  admin = await signUpCompany(server.url, 'dfctl');
  config = freshDfctlConfig();
  deviceId = await eventually(async () => {
    const r = await http(server.url, 'GET', '/df/api/devices?platform=web&search=Pixel', { token: admin.token });
    return (r.body.content as { id: string; status: string }[] | undefined)?.find((d) => d.status === 'available')?.id;
  }, { what: 'the Pixel 7 browser device', timeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('dfctl before signing in', { timeout: 180_000 }, () => {
  it('prints its version and help, and refuses a wrong command line with exit 2', async () => {
    const v = await runDfctl(['--version']);
    expect(v).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const help = await runDfctl(['help', 'upload']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--multipart');
    expect(help.stdout).toContain('Exit codes');
    const typo = await runDfctl(['devices', '--plaform', 'web']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('dfctl: unknown option --plaform (USAGE)\n');
    const unknown = await runDfctl(['fly']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^dfctl: unknown command fly .*\(USAGE\)\n$/);
  });

  it('says when it is not signed in (exit 3) and when the server cannot be reached (exit 5)', async () => {
    const none = await runDfctl(['devices']);
    expect(none.code).toBe(3);
    expect(none.stderr).toBe('dfctl: not signed in: run dfctl login --server <url> (NOT_SIGNED_IN)\n');
    const port = await closedPort();
    const away = await runDfctl(['login', '--server', `http://127.0.0.1:${port}`, '--email', admin.email, '--password-stdin'], { input: admin.password });
    expect(away.code).toBe(5);
    expect(away.stderr).toMatch(new RegExp(`^dfctl: cannot reach http://127.0.0.1:${port}: .*\\(SERVER_UNREACHABLE\\)\\n$`));
  });

  it('refuses a wrong password with exit 3 and saves nothing', async () => {
    const other = freshDfctlConfig();
    const r = await runDfctl(['login', '--server', server.url, '--email', admin.email, '--password-stdin'], { input: 'not the password', env: { DFCTL_CONFIG: other } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/\(INVALID_CREDENTIALS\)\n$/);
    expect(existsSync(other)).toBe(false);
  });
});

describe('dfctl signed in', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    const r = await runDfctl(['login', '--server', server.url, '--email', admin.email, '--password-stdin'], { input: `${admin.password}\n`, env: env() });
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0, stdout: `Signed in to ${server.url} as ${admin.email} (workspace ${admin.workspaceId}).\n` });
  });

  it('keeps the token pair in a file only its owner can read, and says who is signed in', async () => {
    expect(statSync(config).mode & 0o777).toBe(0o600);
    const c = saved();
    expect(c).toMatchObject({ server: server.url, workspaceId: admin.workspaceId, login: admin.email });
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: c.accessToken! })).status).toBe(200);
    const who = await runDfctl(['whoami', '--json'], { env: env() });
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ server: server.url, id: admin.userId, email: admin.email, companyId: admin.companyId, workspaceId: admin.workspaceId });
    // DFCTL_PASSWORD is the other non-interactive way in.
    const second = freshDfctlConfig();
    const viaEnv = await runDfctl(['login', '--server', server.url, '--email', admin.email, '--json'], { env: { DFCTL_CONFIG: second, DFCTL_PASSWORD: admin.password } });
    expect(viaEnv.code).toBe(0);
    expect(JSON.parse(viaEnv.stdout)).toEqual({ server: server.url, login: admin.email, userId: admin.userId, workspaceId: admin.workspaceId });
  });

  it('lists the workspaces and switches to another one (and an unknown one is exit 4)', async () => {
    const created = await http(server.url, 'POST', '/api/v1/workspaces', { token: admin.token, body: { name: 'dfctl second' } });
    expect(created.status).toBe(201);
    const list = await runDfctl(['workspaces', '--json'], { env: env() });
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as { id: number; name: string; current: boolean }[];
    expect(rows.map((w) => [w.id, w.current])).toEqual(expect.arrayContaining([[admin.workspaceId, true], [created.body.id, false]]));
    const human = await runDfctl(['workspaces'], { env: env() });
    expect(human.stdout.split('\n').find((l) => l.includes('dfctl second'))).toMatch(new RegExp(`^\\s+${created.body.id}\\s+dfctl second`));

    const use = await runDfctl(['workspace', 'use', String(created.body.id)], { env: env() });
    expect(use).toMatchObject({ code: 0, stdout: `Now in workspace ${created.body.id}.\n` });
    expect(saved().workspaceId).toBe(created.body.id);
    expect(claims(saved().accessToken!).wid).toBe(created.body.id);
    expect((await runDfctl(['workspace'], { env: env() })).stdout).toBe(`${created.body.id}\n`);

    const unknown = await runDfctl(['workspace', 'use', '999999'], { env: env() });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/\(NOT_FOUND\)\n$/);
    expect(saved().workspaceId).toBe(created.body.id);
    const back = await runDfctl(['workspace', 'use', String(admin.workspaceId)], { env: env() });
    expect(back.code).toBe(0);
    expect(claims(saved().accessToken!).wid).toBe(admin.workspaceId);
  });

  it('lists devices, with filters, as a table and as JSON', async () => {
    const all = await runDfctl(['devices', '--json'], { env: env() });
    expect(all.code).toBe(0);
    const devices = JSON.parse(all.stdout) as { id: string; platform: string; name: string }[];
    const api = await http(server.url, 'GET', '/df/api/devices?size=200', { token: admin.token });
    expect(devices.map((d) => d.id).sort()).toEqual((api.body.content as { id: string }[]).map((d) => d.id).sort());
    const pixel = await runDfctl(['devices', '--platform', 'web', '--search', 'Pixel'], { env: env() });
    expect(pixel.code).toBe(0);
    const lines = pixel.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+PLATFORM\s+OS\s+MODEL\s+STATUS\s+HOST$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(deviceId);
    const none = await runDfctl(['devices', '--platform', 'ios'], { env: env() });
    expect(none).toMatchObject({ code: 0, stdout: 'No device matches.\n' });
    const bad = await runDfctl(['devices', '--status', 'sleeping'], { env: env() });
    expect(bad.code).toBe(2);
  });

  it('opens a session, lists it, shows its logs, follows them until it ends, and ends it', async () => {
    const opened = await runDfctl(['open', deviceId, '--name', 'dfctl e2e'], { env: env(), timeoutMs: 90_000 });
    expect(opened.stderr).toBe('');
    expect(opened.code).toBe(0);
    const sessionId = opened.stdout.trim();
    expect(sessionId).toMatch(UUID);
    const mine = await runDfctl(['sessions', '--json'], { env: env() });
    expect((JSON.parse(mine.stdout) as { id: string; status: string; name: string }[]).find((s) => s.id === sessionId)).toMatchObject({ status: 'active', name: 'dfctl e2e' });
    const table = await runDfctl(['sessions'], { env: env() });
    expect(table.stdout).toMatch(new RegExp(`^${sessionId}\\s+dfctl e2e\\s+`, 'm'));

    const logs = await runDfctl(['logs', sessionId, '--json'], { env: env() });
    expect(logs.code).toBe(0);
    expect(JSON.parse(logs.stdout)).toMatchObject({ entries: expect.any(Array), lastSeq: expect.any(Number) });

    // The screen as it is now, written as a PNG file: its signature and a header with a real size.
    const shot = join(mkdtempSync(join(tmpdir(), 'dfctl-shot-')), 'screen.png');
    const taken = await runDfctl(['screenshot', sessionId, '--output', shot, '--json'], { env: env(), timeoutMs: 60_000 });
    expect(taken.stderr).toBe('');
    expect(taken.code).toBe(0);
    const png = readFileSync(shot);
    expect(JSON.parse(taken.stdout)).toEqual({ file: shot, bytes: png.length });
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBeGreaterThan(0);
    expect(png.readUInt32BE(20)).toBeGreaterThan(0);
    expect((await runDfctl(['screenshot', sessionId, '--format', 'gif'], { env: env() })).code).toBe(2);

    // --follow runs until the session ends, however it ends.
    const follow = spawnDfctl(['logs', sessionId, '--follow', '--interval', '200'], { env: env() });
    const ended = await http(server.url, 'DELETE', `/df/api/sessions/${sessionId}`, { token: admin.token });
    expect(ended.status).toBe(200);
    await follow.waitForLine(new RegExp(`^dfctl: session ${sessionId} ended`));
    expect((await follow.exited).code).toBe(0);

    const again = await runDfctl(['end', sessionId], { env: env() });
    expect(again).toMatchObject({ code: 0, stdout: `Session ${sessionId} ended (user).\n` });
    expect(JSON.parse((await runDfctl(['sessions', '--json'], { env: env() })).stdout)).toEqual([]);
    const every = JSON.parse((await runDfctl(['sessions', '--all', '--json'], { env: env() })).stdout) as { id: string; status: string }[];
    expect(every.find((s) => s.id === sessionId)?.status).toBe('ended');
  });

  it('carries the device browser\'s DevTools to a local port, ends a session it opened, and answers exit 4 for unknown ids', async () => {
    const opened = await runDfctl(['open', deviceId, '--json'], { env: env(), timeoutMs: 90_000 });
    expect(opened.code).toBe(0);
    const session = JSON.parse(opened.stdout) as { id: string; status: string; deviceId: string };
    expect(session).toMatchObject({ status: 'active', deviceId });
    // The device's Chromium DevTools endpoint on a local port: its own HTTP answers come through.
    const devtools = spawnDfctl(['devtools', session.id], { env: env() });
    const line = await devtools.waitForLine(/^DevTools of session .* on http:\/\/127\.0\.0\.1:\d+ /);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
    const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { Browser: string; 'Protocol-Version': string };
    expect(version.Browser).toMatch(/Chrome/);
    const pages = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string }[];
    expect(pages.some((p) => p.type === 'page')).toBe(true);

    const end = await runDfctl(['end', session.id], { env: env() });
    expect(end).toMatchObject({ code: 0, stdout: `Session ${session.id} ended (user).\n` });
    // The tunnel ends with the session.
    expect(await devtools.exited).toMatchObject({ code: 0, stderr: expect.stringMatching(new RegExp(`dfctl: session ${session.id} has ended`)) });
    expect((await http(server.url, 'GET', `/df/api/sessions/${session.id}`, { token: admin.token })).body.status).toBe('ended');

    const noDevice = await runDfctl(['open', randomUUID()], { env: env() });
    expect(noDevice.code).toBe(4);
    expect(noDevice.stderr).toMatch(/^dfctl: .*\(NOT_FOUND\)\n$/);
    const noSession = await runDfctl(['end', randomUUID()], { env: env() });
    expect(noSession.code).toBe(4);
    const noLogs = await runDfctl(['logs', randomUUID()], { env: env() });
    expect(noLogs.code).toBe(4);
  });

  it('uploads a small file in one piece and a larger one in parts, with progress, and prints the file id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dfctl-upload-'));
    const small = join(dir, 'notes.txt');
    writeFileSync(small, 'hello from dfctl\n');
    const one = await runDfctl(['upload', small], { env: env() });
    expect(one.code).toBe(0);
    const id = /: file ([0-9a-f-]{36})\n$/.exec(one.stdout)?.[1];
    expect(id).toMatch(UUID);
    expect(one.stdout).toBe(`Uploaded notes.txt (17 B, ready): file ${id}\n`);
    const stored = await http(server.url, 'GET', `/df/api/files/${id}`, { token: admin.token });
    expect(stored.body).toMatchObject({ name: 'notes.txt', size: 17, status: 'ready', contentType: 'text/plain', sha256: sha256(Buffer.from('hello from dfctl\n')) });

    // 11 MiB in 5 MiB parts: three signed part URLs, then complete; the progress bar forced on.
    const bytes = randomBytes(11 * 1024 * 1024);
    const big = join(dir, 'build.bin');
    writeFileSync(big, bytes);
    const parts = await runDfctl(['upload', big, '--part-size', '5', '--json'], { env: { ...env(), DFCTL_PROGRESS: '1' } });
    expect(parts.code).toBe(0);
    const file = JSON.parse(parts.stdout) as { id: string; size: number; sha256: string; status: string };
    expect(file).toMatchObject({ size: bytes.length, sha256: sha256(bytes), status: 'ready' });
    expect(parts.stderr).toContain('uploading [##############################] 100% 11 MiB / 11 MiB');
    // The bytes came through whole: download them back.
    const res = await fetch(new URL(`/df/api/files/${file.id}/download`, server.url), { headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.status).toBe(200);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(bytes));

    const missing = await runDfctl(['upload', join(dir, 'nope.apk')], { env: env() });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/cannot read .*nope\.apk: ENOENT \(FILE_UNREADABLE\)\n$/);
  });

  it('refreshes the token pair before it lapses, one dfctl at a time, and saves the new pair', async () => {
    const before = saved();
    // A margin wider than the token's lifetime: every run refreshes first.
    const wide = { ...env(), DFCTL_REFRESH_MARGIN: String(10 * 24 * 3600) };
    const r = await runDfctl(['whoami'], { env: wide });
    expect(r.code).toBe(0);
    const after = saved();
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    // The spent refresh token is refused: it was used exactly once.
    const spent = await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: before.refreshToken } });
    expect(spent.status).toBe(401);
    // That reuse ended the whole sign-in (reuse detection); sign in again and race three refreshes.
    const login = await runDfctl(['login', '--email', admin.email, '--password-stdin'], { input: admin.password, env: env() });
    expect(login.code).toBe(0);
    const runs = await Promise.all([1, 2, 3].map(() => runDfctl(['devices', '--json'], { env: wide })));
    expect(runs.map((x) => [x.code, x.stderr])).toEqual([[0, ''], [0, ''], [0, '']]);
    // Had two of them spent the same refresh token, the sign-in would be over now.
    const still = await runDfctl(['whoami', '--json'], { env: env() });
    expect(still.code).toBe(0);
  });

  it('is served by the server itself: manifest, public files with checksum, and an offline npm install that works', async () => {
    const unsigned = await http(server.url, 'GET', '/df/api/client-config/dfctl-manifest');
    expect(unsigned.status).toBe(401);
    const m = await http(server.url, 'GET', '/df/api/client-config/dfctl-manifest', { token: admin.token });
    expect(m.status).toBe(200);
    const tgzName = `dfctl-${VERSION}.tgz`;
    expect(m.body).toEqual({
      name: 'dfctl',
      version: VERSION,
      node: '>=20',
      files: [
        { kind: 'npm-tarball', name: tgzName, url: `${server.url}/df/downloads/dfctl/${tgzName}`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: expect.any(Number) },
        { kind: 'script', name: 'dfctl.cjs', url: `${server.url}/df/downloads/dfctl/dfctl.cjs`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: expect.any(Number) },
      ],
      install: `npm install -g ${server.url}/df/downloads/dfctl/${tgzName}`,
    });

    const dir = mkdtempSync(join(tmpdir(), 'dfctl-install-'));
    const [tarball, script] = m.body.files as { url: string; sha256: string; size: number }[];
    // No credential: a machine with only Node.js downloads it.
    const res = await fetch(tarball!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-length')).toBe(String(tarball!.size));
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const tgz = Buffer.from(await res.arrayBuffer());
    expect(tgz.length).toBe(tarball!.size);
    expect(sha256(tgz)).toBe(tarball!.sha256);
    expect((await fetch(tarball!.url, { headers: { 'if-none-match': etag! } })).status).toBe(304);
    const unknown = await http(server.url, 'GET', '/df/downloads/dfctl/dfctl-0.0.0.tgz');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');

    const downloaded = join(dir, tgzName);
    writeFileSync(downloaded, tgz);
    const prefix = mkdtempSync(join(tmpdir(), 'dfctl-prefix-'));
    execFileSync('npm', ['install', '--prefix', prefix, downloaded, '--offline', '--no-audit', '--no-fund', '--cache', join(dir, 'npm-cache')], {
      env: { ...process.env, npm_config_update_notifier: 'false' },
      stdio: 'pipe',
    });
    const bin = join(prefix, 'node_modules', '.bin', 'dfctl');
    const installed = await runDfctl(['--version'], { bin });
    expect(installed).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    const listed = await runDfctl(['devices', '--platform', 'web', '--json'], { bin, env: env() });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((d) => d.id)).toContain(deviceId);

    // The single-file script: node runs it as it is.
    const js = Buffer.from(await (await fetch(script!.url)).arrayBuffer());
    expect(sha256(js)).toBe(script!.sha256);
    const file = join(dir, 'dfctl.cjs');
    writeFileSync(file, js);
    expect(execFileSync(process.execPath, [file, '--version'], { encoding: 'utf8' })).toBe(`${VERSION}\n`);
  });

  it('works with a device-testing API key instead of a sign-in', async () => {
    const key = await http(server.url, 'POST', '/df/api/keys', { token: admin.token, body: { name: 'dfctl' } });
    expect(key.status).toBe(201);
    const r = await runDfctl(['devices', '--json'], { env: { DFCTL_API_KEY: key.body.key, DFCTL_SERVER: server.url } });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }[]).map((d) => d.id)).toContain(deviceId);
    const wrong = await runDfctl(['devices'], { env: { DFCTL_API_KEY: 'dfk_wrong', DFCTL_SERVER: server.url } });
    expect(wrong.code).toBe(3);
  });

  it('waits out a 429 for its Retry-After and tries again, saying so', async () => {
    const key = (await http(server.url, 'POST', '/df/api/keys', { token: admin.token, body: { name: 'dfctl retry' } })).body.key as string;
    // A loopback front that refuses the first device list for a second, then passes everything on.
    const seen: string[] = [];
    const front = createHttpServer(async (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (seen.length === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"code":"TOO_MANY_REQUESTS","message":"slow down"}');
        return;
      }
      const answer = await fetch(`${server.url}${req.url}`, { method: req.method!, headers: { 'x-api-key': String(req.headers['x-api-key']) } });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const r = await runDfctl(['devices', '--json'], { env: { DFCTL_API_KEY: key, DFCTL_SERVER: `http://127.0.0.1:${(front.address() as { port: number }).port}` } });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/answered 429; trying again in 1 s \(1 of 5\)/);
      expect((JSON.parse(r.stdout) as { id: string }[]).map((d) => d.id)).toContain(deviceId);
      expect(seen.filter((l) => l.startsWith('GET /df/api/devices')).length).toBe(2);
    } finally {
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('signs out: the server ends the sign-in and the tokens are forgotten', async () => {
    const before = saved();
    const r = await runDfctl(['logout'], { env: env() });
    expect(r).toMatchObject({ code: 0, stdout: 'Signed out.\n' });
    expect(saved()).toEqual({ server: server.url });
    expect((await http(server.url, 'GET', '/api/v1/users/me', { token: before.accessToken! })).status).toBe(401);
    expect((await http(server.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: before.refreshToken } })).status).toBe(401);
    const who = await runDfctl(['whoami'], { env: env() });
    expect(who.code).toBe(3);
  });
});
