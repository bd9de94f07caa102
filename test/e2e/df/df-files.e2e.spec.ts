import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { aaptBadging, referenceApks, testIpa } from '#test/helpers/apps.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { zipOf } from '#test/helpers/zip.js';

/**
 * Files and the app catalog end to end, through the started server: real APKs (Appium's, shipped in
 * npm packages) uploaded straight to storage by signed URL, catalogued exactly as Debian's `aapt` reads
 * them, installed from the catalog on the adbd test device through a real adb server; an IPA made here;
 * a 200 MB multipart upload with a retried part; aborts, expiry, refusals, another company's ids.
 */
const ADMIN = { email: 'files-admin@example.com', password: 'files-password-1' };
const MiB = 1024 * 1024;
let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let token: string;
let other: SignedUpCompany;
const apks = referenceApks();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Files Phone', manufacturer: 'PeerWorks', release: '14', width: 360, height: 640 }));
  adb = await startAdbServer();
  await adb.connect(port);
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    DF_DOWNLOAD_URL_TTL: '2s',
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'files-node', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  other = await signUpCompany(server.url, 'files-other');
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await adb?.stop();
  await peer?.close();
});

const api = (method: string, path: string, body?: unknown, as = token) => http(server.url, method, `/df/api${path}`, { token: as, ...(body !== undefined ? { body } : {}) });

/** The presigned flow as a client runs it: ask, PUT the bytes straight to the URL with its headers, confirm. */
async function upload(name: string, bytes: Buffer, options: { contentType?: string; sha256?: string } = {}) {
  const started = await api('POST', '/files/presigned-upload', { name, size: bytes.length, contentType: options.contentType ?? 'application/octet-stream', ...(options.sha256 ? { sha256: options.sha256 } : {}) });
  expect(started.status).toBe(201);
  expect(started.body).toMatchObject({ fileId: expect.any(String), method: 'PUT', url: expect.stringMatching(/^http:\/\//), expiresAt: expect.any(String) });
  // No bearer token: the signature is the credential.
  const put = await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  const confirmed = await api('POST', `/files/${started.body.fileId}/confirm`);
  return { fileId: started.body.fileId as string, confirmed };
}

const poll = (operationId: string) =>
  eventually(
    async () => {
      const r = await api('GET', `/operations/${operationId}`);
      expect(r.status).toBe(200);
      return ['succeeded', 'failed', 'cancelled'].includes(r.body.state) ? r.body : undefined;
    },
    { what: `operation ${operationId} to end`, timeoutMs: 120_000 },
  );

const ids: { settings?: { fileId: string; versionId: string; appId: string }; settingsOld?: { versionId: string }; server?: { fileId: string; versionId: string; appId: string }; ipaApp?: string } = {};

describe('real APKs in the catalog', () => {
  it('are uploaded through the presigned flow and catalogued with the package, version and SDK aapt reports', { timeout: 120_000 }, async () => {
    for (const [which, path] of [['settings', apks.settings], ['settingsOld', apks.settingsOld], ['server', apks.uiautomator2]] as const) {
      const bytes = readFileSync(path);
      const reference = await aaptBadging(path);
      const { fileId, confirmed } = await upload(`${which}.apk`, bytes, { contentType: 'application/vnd.android.package-archive', sha256: sha(bytes) });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toMatchObject({ id: fileId, name: `${which}.apk`, size: bytes.length, sha256: sha(bytes), status: 'ready', kind: 'app', appId: expect.any(String), versionId: expect.any(String) });
      const version = await api('GET', `/files/app-versions/${confirmed.body.versionId}`);
      expect(version.status).toBe(200);
      expect(version.body).toMatchObject({
        id: confirmed.body.versionId,
        appId: confirmed.body.appId,
        versionName: reference.versionName,
        versionCode: reference.versionCode,
        minOs: reference.sdkVersion,
        targetOs: reference.targetSdkVersion,
        fileId,
        size: bytes.length,
        sha256: sha(bytes),
      });
      expect(version.body.permissions).toEqual([...new Set(reference.permissions)]);
      const versions = await api('GET', `/files/apps/${confirmed.body.appId}/versions`);
      const app = (await api('GET', '/files/apps?size=50')).body.content.find((a: { id: string }) => a.id === confirmed.body.appId);
      expect(app).toMatchObject({ platform: 'android', identifier: reference.package });
      expect(versions.body.content.map((v: { id: string }) => v.id)).toContain(confirmed.body.versionId);
      ids[which] = { fileId, versionId: confirmed.body.versionId, appId: confirmed.body.appId };
    }
  });

  it('lists two releases of the settings app as two versions of one app, the newer first', async () => {
    expect(ids.settings!.appId).toBe((ids.settingsOld as { appId?: string }).appId);
    const apps = await api('GET', '/files/apps');
    expect(apps.body.totalElements).toBe(2);
    const settings = apps.body.content.find((a: { identifier: string }) => a.identifier === 'io.appium.settings');
    expect(settings).toMatchObject({ id: ids.settings!.appId, name: 'Appium Settings', versionCount: 2, latestVersionId: ids.settings!.versionId, iconUrl: expect.stringMatching(/^http/) });
    const icon = await fetch(settings.iconUrl);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).subarray(1, 4).toString('latin1')).toBe('PNG');
    const serverApp = apps.body.content.find((a: { identifier: string }) => a.identifier === 'io.appium.uiautomator2.server');
    expect(serverApp).toMatchObject({ name: 'io.appium.uiautomator2.server', versionCount: 1 });
    const versions = await api('GET', `/files/apps/${ids.settings!.appId}/versions`);
    expect(versions.body.content.map((v: { versionName: string; versionCode: string }) => [v.versionName, v.versionCode])).toEqual([
      ['8.0.9', '191'],
      ['7.1.11', '181'],
    ]);
  });

  it('files the same bytes twice as one version', async () => {
    const bytes = readFileSync(apks.settingsOld);
    const again = await upload('settings-copy.apk', bytes);
    expect(again.confirmed.body).toMatchObject({ status: 'ready', kind: 'app', versionId: ids.settingsOld!.versionId });
    expect((await api('GET', `/files/apps/${ids.settings!.appId}/versions`)).body.totalElements).toBe(2);
    expect((await api('DELETE', `/files/${again.fileId}`)).status).toBe(204);
    expect((await api('GET', `/files/app-versions/${ids.settingsOld!.versionId}`)).status).toBe(200);
  });

  it('catalogues an IPA made here (zip + binary Info.plist) with its bundle id and version', async () => {
    const ipa = testIpa({ bundleId: 'com.example.farm.ios', name: 'FarmApp', version: '3.4.5', build: '345', minimumOs: '16.0' });
    const { confirmed } = await upload('FarmApp.ipa', ipa);
    expect(confirmed.body).toMatchObject({ status: 'ready', kind: 'app' });
    const apps = await api('GET', '/files/apps?platform=ios');
    expect(apps.body.content).toEqual([expect.objectContaining({ platform: 'ios', identifier: 'com.example.farm.ios', name: 'FarmApp', versionCount: 1, iconUrl: null })]);
    const version = await api('GET', `/files/app-versions/${confirmed.body.versionId}`);
    expect(version.body).toMatchObject({ versionName: '3.4.5', versionCode: '345', minOs: '16.0', abis: ['arm64'] });
    ids.ipaApp = confirmed.body.appId;
  });

  it('refuses a file called .apk that is no zip, and a checksum that does not match, keeping nothing', async () => {
    const fake = await upload('evil.apk', Buffer.from('MZ this is not an android package at all'));
    expect(fake.confirmed.status).toBe(415);
    expect(fake.confirmed.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect((await api('GET', `/files/${fake.fileId}`)).body.status).toBe('failed');
    const wrong = await upload('notes.txt', Buffer.from('some notes'), { sha256: sha(Buffer.from('other notes')) });
    expect(wrong.confirmed.status).toBe(422);
    expect(wrong.confirmed.body.code).toBe('CHECKSUM_MISMATCH');
    const plain = await upload('notes.txt', Buffer.from('some notes'), { contentType: 'text/plain', sha256: sha(Buffer.from('some notes')) });
    expect(plain.confirmed.body).toMatchObject({ status: 'ready', kind: 'file', contentType: 'text/plain' });
    expect(plain.confirmed.body.appId).toBeUndefined();
    const tooBig = await api('POST', '/files/presigned-upload', { name: 'huge.bin', size: 5 * 1024 * MiB, contentType: 'application/octet-stream' });
    expect(tooBig.status).toBe(413);
    const early = await api('POST', '/files/presigned-upload', { name: 'early.bin', size: 10, contentType: 'application/octet-stream' });
    expect((await api('POST', `/files/${early.body.fileId}/confirm`)).body.code).toBe('UPLOAD_INCOMPLETE');
  });
});

describe('installs from the catalog', () => {
  let deviceId: string;
  let sessionId: string;

  beforeAll(async () => {
    deviceId = await eventually(async () => (await api('GET', '/devices?platform=android')).body.content?.[0]?.id as string | undefined, { what: 'the android device', timeoutMs: 30_000 });
    const created = await api('POST', '/sessions', { deviceId, name: 'catalog installs' });
    expect(created.status).toBe(201);
    sessionId = created.body.id;
  }, 60_000);

  it('installs a catalogued version on the device through a real adb server: 202, an operation, the exact bytes at the package manager', { timeout: 120_000 }, async () => {
    const started = await api('POST', `/sessions/${sessionId}/apps/install`, { versionId: ids.settings!.versionId });
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/df/api/operations/${started.body.operationId}`);
    const done = await poll(started.body.operationId);
    expect(done).toMatchObject({ type: 'app-install', state: 'succeeded', progress: 100, error: null, result: { packageNames: ['io.appium.settings'], versionId: ids.settings!.versionId } });
    const bytes = readFileSync(apks.settings);
    expect(peer.record.installs.at(-1)).toMatchObject({ packageName: 'io.appium.settings', size: bytes.length, sha256: sha(bytes) });
    expect(peer.packages.has('io.appium.settings')).toBe(true);
  });

  it('installs by file id too, and refuses to delete a version while its install runs', { timeout: 120_000 }, async () => {
    const started = await api('POST', `/sessions/${sessionId}/apps/install`, { fileId: ids.server!.fileId });
    expect(started.status).toBe(202);
    const refused = await api('DELETE', `/files/apps/${ids.server!.appId}/versions/${ids.server!.versionId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('APP_VERSION_IN_USE');
    const done = await poll(started.body.operationId);
    expect(done).toMatchObject({ state: 'succeeded', result: { packageNames: ['io.appium.uiautomator2.server'] } });
    expect(peer.record.installs.at(-1)).toMatchObject({ packageName: 'io.appium.uiautomator2.server', sha256: sha(readFileSync(apks.uiautomator2)) });
  });

  it('refuses what cannot be installed: an IPA on Android, a plain file, both ids, an unknown version', async () => {
    const ipaVersion = (await api('GET', `/files/apps/${ids.ipaApp}/versions`)).body.content[0].id;
    expect((await api('POST', `/sessions/${sessionId}/apps/install`, { versionId: ipaVersion })).body.code).toBe('DEVICE_UNSUPPORTED');
    expect((await api('POST', `/sessions/${sessionId}/apps/install`, { versionId: 'nope' })).status).toBe(404);
    expect((await api('POST', `/sessions/${sessionId}/apps/install`, { versionId: 'a', fileId: 'b' })).status).toBe(400);
  });
});

describe('multipart uploads', () => {
  /** Deterministic bytes of one part, made when needed (the whole file is never held in memory). */
  const seed = Buffer.from(Array.from({ length: MiB }, (_, i) => (i * 2654435761) >>> 24));
  const partBytes = (part: number, length: number) => {
    const out = Buffer.allocUnsafe(length);
    for (let at = 0, block = 0; at < length; at += MiB, block++) {
      const r = (part * 7919 + block * 104729) % MiB;
      const rotated = Buffer.concat([seed.subarray(r), seed.subarray(0, r)]);
      rotated.copy(out, at, 0, Math.min(MiB, length - at));
    }
    return out;
  };

  it('uploads a 200 MB file in parts, a broken part retried, its checksum verified, and downloads it back', { timeout: 180_000 }, async () => {
    const size = 200 * MiB;
    const partSize = 16 * MiB;
    const partCount = Math.ceil(size / partSize);
    const lengthOf = (n: number) => (n < partCount ? partSize : size - partSize * (partCount - 1));
    const whole = createHash('sha256');
    for (let n = 1; n <= partCount; n++) whole.update(partBytes(n, lengthOf(n)));
    const expected = whole.digest('hex');
    const init = await api('POST', '/files/multipart/initiate', { name: 'big-build.bin', size, contentType: 'application/octet-stream', partSize, sha256: expected });
    expect(init.status).toBe(201);
    expect(init.body).toMatchObject({ partSize, partCount });
    const fileId = init.body.fileId as string;
    const etags: { partNumber: number; etag: string }[] = [];
    for (let n = 1; n <= partCount; n++) {
      const bytes = partBytes(n, lengthOf(n));
      const part = await api('GET', `/files/multipart/${fileId}/part/${n}`);
      expect(part.body).toMatchObject({ method: 'PUT', url: expect.any(String) });
      if (n === 3) {
        // The connection breaks half-way through this part: nothing of it is kept, and it is sent again.
        await new Promise<void>((resolve) => {
          const req = httpRequest(part.body.url, { method: 'PUT', headers: { 'content-length': String(bytes.length) } });
          req.on('error', () => resolve());
          req.write(bytes.subarray(0, bytes.length / 2), () => setTimeout(() => (req.destroy(), resolve()), 50));
        });
      }
      const url = n === 3 ? (await api('GET', `/files/multipart/${fileId}/part/${n}`)).body.url : part.body.url;
      const res = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
      expect(res.status).toBe(200);
      etags.push({ partNumber: n, etag: res.headers.get('etag')! });
    }
    const missing = await api('POST', `/files/multipart/${fileId}/complete`, { parts: etags.slice(1) });
    expect(missing.body.code).toBe('INVALID_PART');
    const complete = await api('POST', `/files/multipart/${fileId}/complete`, { parts: etags });
    expect(complete.status).toBe(200);
    expect(complete.body).toMatchObject({ id: fileId, status: 'ready', size, sha256: expected, kind: 'file' });
    const download = await fetch(new URL(`/df/api/files/${fileId}/download`, server.url), { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    expect(download.status).toBe(302);
    const got = await fetch(download.headers.get('location')!);
    expect(got.headers.get('content-disposition')).toContain('big-build.bin');
    const back = createHash('sha256');
    let length = 0;
    for await (const chunk of got.body!) {
      back.update(chunk);
      length += chunk.length;
    }
    expect([length, back.digest('hex')]).toEqual([size, expected]);
    expect(readdirSync(join(server.dataDir, 'blobs', 'uploads'))).toEqual([]);
    expect((await api('DELETE', `/files/${fileId}`)).status).toBe(204);
    expect(existsSync(join(server.dataDir, 'blobs', 'objects', 'df', 'company-1', 'files', fileId))).toBe(false);
  });

  it('an aborted multipart upload leaves nothing behind', async () => {
    const init = await api('POST', '/files/multipart/initiate', { name: 'aborted.bin', size: 12 * MiB, contentType: 'application/octet-stream', partSize: 5 * MiB });
    const fileId = init.body.fileId as string;
    const part = await api('GET', `/files/multipart/${fileId}/part/1`);
    expect((await fetch(part.body.url, { method: 'PUT', body: new Uint8Array(partBytes(1, 5 * MiB)) })).status).toBe(200);
    expect(readdirSync(join(server.dataDir, 'blobs', 'uploads'))).toHaveLength(1);
    expect((await api('DELETE', `/files/multipart/${fileId}`)).status).toBe(204);
    expect(readdirSync(join(server.dataDir, 'blobs', 'uploads'))).toEqual([]);
    expect(existsSync(join(server.dataDir, 'blobs', 'objects', 'df', 'company-1', 'files', fileId))).toBe(false);
    expect((await api('GET', `/files/${fileId}`)).status).toBe(404);
    expect((await fetch(part.body.url, { method: 'PUT', body: new Uint8Array(partBytes(1, 5 * MiB)) })).status).toBe(404);
    expect((await api('GET', `/files/multipart/${fileId}/part/2`)).status).toBe(404);
  });

  it('cleans up an upload never confirmed once its time is out', async () => {
    const started = await api('POST', '/files/presigned-upload', { name: 'forgotten.bin', size: 3, contentType: 'application/octet-stream' });
    expect((await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: 'abc' })).status).toBe(200);
    expect(existsSync(join(server.dataDir, 'blobs', 'objects', 'df', 'company-1', 'uploads', started.body.fileId))).toBe(true);
    const realNow = server.process.platform.now;
    server.process.platform.now = () => new Date(Date.now() + 25 * 3_600_000);
    try {
      expect(await server.process.df!.files.sweep()).toBeGreaterThanOrEqual(1);
    } finally {
      server.process.platform.now = realNow;
    }
    // The read model follows the abort: read until it has.
    await expect.poll(async () => (await api('GET', `/files/${started.body.fileId}`)).status).toBe(404);
    // The bytes a signed URL puts wait at the upload key until confirmation moves them.
    expect(existsSync(join(server.dataDir, 'blobs', 'objects', 'df', 'company-1', 'uploads', started.body.fileId))).toBe(false);
    expect(existsSync(join(server.dataDir, 'blobs', 'objects', 'df', 'company-1', 'files', started.body.fileId))).toBe(false);
  });
});

describe('signed URLs and tenants', () => {
  it('refuses a download URL after its expiry, for another object, or with another method', { timeout: 30_000 }, async () => {
    const { fileId } = await upload('expiring.txt', Buffer.from('short-lived'), { contentType: 'text/plain' });
    const download = await fetch(new URL(`/df/api/files/${fileId}/download`, server.url), { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    const location = download.headers.get('location')!;
    expect(await (await fetch(location)).text()).toBe('short-lived');
    const forOther = await fetch(location.replace(fileId, ids.settings!.fileId));
    expect([forOther.status, ((await forOther.json()) as { code: string }).code]).toEqual([403, 'SIGNATURE_INVALID']);
    const put = await fetch(location, { method: 'PUT', body: 'overwritten' });
    expect([put.status, ((await put.json()) as { code: string }).code]).toEqual([403, 'SIGNATURE_INVALID']);
    const expires = Number(new URL(location).searchParams.get('expires'));
    await new Promise((r) => setTimeout(r, Math.max(0, expires * 1000 - Date.now()) + 200));
    const late = await fetch(location);
    expect([late.status, ((await late.json()) as { code: string }).code]).toEqual([403, 'SIGNATURE_EXPIRED']);
  });

  it("answers 404 for another company's files, apps, versions and operations, and lists none of them", async () => {
    const as = other.token;
    const { fileId, versionId, appId } = ids.settings!;
    for (const [method, path, body] of [
      ['GET', `/files/${fileId}`],
      ['GET', `/files/${fileId}/download`],
      ['DELETE', `/files/${fileId}`],
      ['POST', `/files/${fileId}/confirm`],
      ['GET', `/files/multipart/${fileId}/part/1`],
      ['POST', `/files/multipart/${fileId}/complete`, { parts: [{ partNumber: 1, etag: 'x' }] }],
      ['DELETE', `/files/multipart/${fileId}`],
      ['GET', `/files/apps/${appId}/versions`],
      ['GET', `/files/app-versions/${versionId}`],
      ['DELETE', `/files/apps/${appId}`],
      ['DELETE', `/files/apps/${appId}/versions/${versionId}`],
    ] as const) {
      const r = await api(method, path, body, as);
      expect([method, path, r.status]).toEqual([method, path, 404]);
    }
    expect((await api('GET', '/files', undefined, as)).body.totalElements).toBe(0);
    expect((await api('GET', '/files/apps', undefined, as)).body.totalElements).toBe(0);
    const mine = await api('POST', '/files/apps/backfill');
    expect((await api('GET', `/operations/${mine.body.operationId}`, undefined, as)).status).toBe(404);
    await poll(mine.body.operationId);
  });
});

describe('catalog backfill and deletes', () => {
  it('builds the catalog from files uploaded before as plain files', { timeout: 60_000 }, async () => {
    const inner = readFileSync(apks.uiautomator2);
    const asZip = await upload('server-build.zip', inner, { contentType: 'application/zip' });
    expect(asZip.confirmed.body).toMatchObject({ status: 'ready', kind: 'file' });
    const notes = await upload('archive.zip', zipOf([['a.txt', Buffer.from('not an app')]]), { contentType: 'application/zip' });
    expect(notes.confirmed.body.kind).toBe('file');
    const started = await api('POST', '/files/apps/backfill');
    expect(started.status).toBe(202);
    expect(started.headers.get('location')).toBe(`/df/api/operations/${started.body.operationId}`);
    const done = await poll(started.body.operationId);
    expect(done).toMatchObject({ type: 'catalog-backfill', state: 'succeeded', progress: 100 });
    expect(done.result.versions).toContainEqual(expect.objectContaining({ fileId: asZip.fileId, appId: ids.server!.appId }));
    expect((await api('GET', `/files/${asZip.fileId}`)).body).toMatchObject({ kind: 'app', appId: ids.server!.appId, versionId: ids.server!.versionId });
    expect((await api('GET', `/files/${notes.fileId}`)).body.kind).toBe('file');
  });

  it('deletes a version with its files, then the app', async () => {
    expect((await api('DELETE', `/files/apps/${ids.settings!.appId}/versions/${ids.settingsOld!.versionId}`)).status).toBe(204);
    expect((await api('GET', `/files/app-versions/${ids.settingsOld!.versionId}`)).status).toBe(404);
    const app = (await api('GET', '/files/apps')).body.content.find((a: { id: string }) => a.id === ids.settings!.appId);
    expect(app).toMatchObject({ versionCount: 1, latestVersionId: ids.settings!.versionId });
    expect((await api('DELETE', `/files/apps/${ids.settings!.appId}`)).status).toBe(204);
    expect((await api('GET', `/files/apps/${ids.settings!.appId}/versions`)).status).toBe(404);
    expect((await api('GET', `/files/${ids.settings!.fileId}`)).status).toBe(404);
    expect((await api('GET', '/files/apps')).body.content.map((a: { identifier: string }) => a.identifier).sort()).toEqual(['com.example.farm.ios', 'io.appium.uiautomator2.server']);
  });
});
