import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A confirmed file never changes, on both blob stores: its upload URL used again (single or part)
 * does not reach its bytes (the file system's route refuses it, 409 `UPLOAD_COMPLETED`; S3's URL
 * cannot be revoked, but it names a key nothing reads after confirmation), and bytes changed behind
 * the platform's back (the stored file or object written directly) are refused at download
 * (409 `FILE_INTEGRITY_FAILED`), never served as the file.
 */
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Store {
  server: TestServer;
  /** Writes the bytes of a blob key directly, as someone with access to the storage could. */
  tamper(key: string, bytes: Buffer): Promise<void>;
  close(): Promise<void>;
}

async function fsStore(): Promise<Store> {
  const server = await startTestServer();
  return { server, tamper: async (key, bytes) => writeFileSync(join(server.dataDir, 'blobs', 'objects', key), bytes), close: () => server.stop() };
}

async function s3Store(): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-s3rver-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = await s3rver.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await client.send(new CreateBucketCommand({ Bucket: 'qa-files' }));
  const server = await startTestServer({ BLOB_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: 'qa-files', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
  return {
    server,
    tamper: async (key, bytes) => void (await client.send(new PutObjectCommand({ Bucket: 'qa-files', Key: key, Body: bytes }))),
    async close() {
      await server.stop();
      client.destroy();
      await s3rver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

for (const [name, open] of [
  ['file-system store', fsStore],
  ['S3 store (s3rver)', s3Store],
] as const) {
  describe(`confirmed files are immutable: ${name}`, () => {
    let store: Store;
    let company: SignedUpCompany;
    beforeAll(async () => {
      store = await open();
      company = await signUpCompany(store.server.url, 'immutable');
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    const api = (method: string, path: string, body?: unknown) => http(store.server.url, method, `/df/api${path}`, { token: company.token, ...(body !== undefined ? { body } : {}) });
    const fileKey = (fileId: string) => `df/company-${company.companyId}/files/${fileId}`;
    /** Follows the download redirect: the bytes served, or the refusal. */
    const download = async (fileId: string) => {
      const redirect = await fetch(new URL(`/df/api/files/${fileId}/download`, store.server.url), { headers: { authorization: `Bearer ${company.token}` }, redirect: 'manual' });
      if (redirect.status !== 302) return { status: redirect.status, body: (await redirect.json()) as { code: string; statusCode: number } };
      const res = await fetch(redirect.headers.get('location')!);
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), location: redirect.headers.get('location')! };
    };
    const confirmedUpload = async (bytes: Buffer) => {
      const started = await api('POST', '/files/presigned-upload', { name: 'build.bin', size: bytes.length, contentType: 'application/octet-stream' });
      expect(started.status).toBe(201);
      const put = await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: new Uint8Array(bytes) });
      expect(put.status).toBe(200);
      const confirmed = await api('POST', `/files/${started.body.fileId}/confirm`);
      expect(confirmed.body).toMatchObject({ status: 'ready', sha256: sha(bytes), size: bytes.length });
      return { fileId: started.body.fileId as string, url: started.body.url as string, headers: started.body.headers as Record<string, string> };
    };

    it('a single upload URL used again after confirmation changes nothing: the download serves the confirmed bytes', async () => {
      const original = randomBytes(64 * 1024);
      const { fileId, url, headers } = await confirmedUpload(original);
      const replay = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(randomBytes(original.length)) });
      if (name === 'file-system store') {
        expect(replay.status).toBe(409);
        expect(await replay.json()).toMatchObject({ statusCode: 409, code: 'UPLOAD_COMPLETED', error: 'Conflict' });
      }
      expect((await api('GET', `/files/${fileId}`)).body).toMatchObject({ status: 'ready', sha256: sha(original) });
      expect((await api('POST', `/files/${fileId}/confirm`)).body).toMatchObject({ status: 'ready', sha256: sha(original) });
      const got = await download(fileId);
      expect(got.status).toBe(200);
      expect(sha(got.bytes!)).toBe(sha(original));
    });

    it('a part URL used again after the multipart upload completed changes nothing', async () => {
      const original = randomBytes(100 * 1024);
      const init = await api('POST', '/files/multipart/initiate', { name: 'parts.bin', size: original.length, contentType: 'application/octet-stream' });
      expect(init.body.partCount).toBe(1);
      const part = await api('GET', `/files/multipart/${init.body.fileId}/part/1`);
      const res = await fetch(part.body.url, { method: 'PUT', body: new Uint8Array(original) });
      expect(res.status).toBe(200);
      const complete = await api('POST', `/files/multipart/${init.body.fileId}/complete`, { parts: [{ partNumber: 1, etag: res.headers.get('etag') }] });
      expect(complete.body).toMatchObject({ status: 'ready', sha256: sha(original) });
      const replay = await fetch(part.body.url, { method: 'PUT', body: new Uint8Array(randomBytes(original.length)) });
      if (name === 'file-system store') expect([replay.status, ((await replay.json()) as { code: string }).code]).toEqual([409, 'UPLOAD_COMPLETED']);
      else expect(replay.status).toBeGreaterThanOrEqual(200);
      const got = await download(init.body.fileId);
      expect(sha(got.bytes!)).toBe(sha(original));
    });

    it('bytes changed behind the platform’s back are refused at download, not served as the file', async () => {
      const original = randomBytes(32 * 1024);
      const { fileId } = await confirmedUpload(original);
      const before = await download(fileId);
      expect(sha(before.bytes!)).toBe(sha(original));
      await store.tamper(fileKey(fileId), randomBytes(original.length));
      const refused = await download(fileId);
      expect(refused).toEqual({ status: 409, body: expect.objectContaining({ statusCode: 409, code: 'FILE_INTEGRITY_FAILED', error: 'Conflict' }) });
      if (name === 'file-system store') {
        // A download URL handed out before the change is checked when used, too.
        const late = await fetch(before.location!);
        expect([late.status, ((await late.json()) as { code: string }).code]).toEqual([409, 'FILE_INTEGRITY_FAILED']);
      }
      // The record is untouched: the file still names the confirmed digest.
      expect((await api('GET', `/files/${fileId}`)).body).toMatchObject({ status: 'ready', sha256: sha(original) });
      // Putting the confirmed bytes back makes the file downloadable again.
      await store.tamper(fileKey(fileId), original);
      expect(sha((await download(fileId)).bytes!)).toBe(sha(original));
    });
  });
}
