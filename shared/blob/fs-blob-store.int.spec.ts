import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSigningKeys } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { blobStoreContract } from './blob-store.contract.js';
import { createFsBlobStore, SIGNED_BLOB_PATH, signingKeyUrlSigner, type FsBlobStore } from './index.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Serves the store's signed URLs the way the df route does: the signature is the only credential. */
async function serve(store: FsBlobStore): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const query = Object.fromEntries(url.searchParams);
    const length = req.headers['content-length'];
    store
      .serveSigned({ method: req.method ?? 'GET', key: url.pathname.slice(SIGNED_BLOB_PATH.length), query, contentLength: length === undefined ? undefined : Number(length), body: req.method === 'PUT' ? req : null })
      .then((answer) => {
        res.writeHead(answer.status, answer.headers);
        if (answer.body) answer.body.pipe(res);
        else res.end();
      })
      .catch((err: unknown) => {
        const status = err instanceof AppError ? err.statusCode : 500;
        res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ code: err instanceof AppError ? err.code : 'INTERNAL_ERROR' }));
        req.resume();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

async function openFs() {
  const root = mkdtempSync(join(tmpdir(), 'qa-blob-'));
  roots.push(root);
  const keys = await loadSigningKeys({ alg: 'EdDSA', dataDir: root });
  const store = createFsBlobStore(join(root, 'blobs'), { signer: signingKeyUrlSigner(keys) });
  const { server, baseUrl } = await serve(store);
  return {
    store,
    root,
    baseUrl,
    // Writes the stored file itself, as a person or a tool with access to the data directory could.
    tamper: async (key: string, bytes: Buffer) => writeFileSync(join(root, 'blobs', 'objects', key), bytes),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

blobStoreContract('file system', { open: openFs, strict: true, abortsAndListsUploads: true });

describe('file-system blob store', () => {
  it('keeps nothing of a refused or aborted upload on disk', async () => {
    const { store, root, baseUrl, close } = await openFs();
    try {
      const put = await store.presignPut('c/too-big', { contentType: 'text/plain', size: 10, expiresInMs: 60_000 });
      expect((await fetch(new URL(put.url, baseUrl), { method: 'PUT', headers: put.headers, body: 'x'.repeat(11) })).status).toBe(413);
      const uploadId = await store.startMultipart('c/parts', { contentType: 'text/plain' });
      const part = await store.presignPart('c/parts', uploadId, 1, { size: 5, expiresInMs: 60_000 });
      expect((await fetch(new URL(part.url, baseUrl), { method: 'PUT', body: 'hello' })).status).toBe(200);
      await store.abortMultipart('c/parts', uploadId);
      expect(readdirSync(join(root, 'blobs', 'uploads'))).toEqual([]);
      expect(existsSync(join(root, 'blobs', 'objects', 'c')) ? readdirSync(join(root, 'blobs', 'objects', 'c')) : []).toEqual([]);
    } finally {
      await close();
    }
  });

  it('refuses a download URL signed with a digest once the file holds other bytes, even of the same size', async () => {
    const { store, root, baseUrl, close } = await openFs();
    try {
      const bytes = Buffer.from('the confirmed bytes');
      await store.put('c/files/f1', bytes, { contentType: 'text/plain' });
      const get = await store.presignGet('c/files/f1', { expiresInMs: 60_000, expect: { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') } });
      const ok = await fetch(new URL(get.url, baseUrl));
      expect([ok.status, await ok.text()]).toEqual([200, 'the confirmed bytes']);
      writeFileSync(join(root, 'blobs', 'objects', 'c', 'files', 'f1'), Buffer.from('THE CONFIRMED BYTES'));
      const refused = await fetch(new URL(get.url, baseUrl));
      expect([refused.status, await refused.json()]).toEqual([409, { code: 'FILE_INTEGRITY_FAILED' }]);
      // The digest is part of what is signed: a URL stripped of it is not a URL of this store's.
      const stripped = await fetch(new URL(get.url.replace(/&sha256=[0-9a-f]+/, ''), baseUrl));
      expect(stripped.status).toBe(403);
    } finally {
      await close();
    }
  });

  it('answers a clear code for an expired, tampered or unsigned URL', async () => {
    const { store, baseUrl, close } = await openFs();
    try {
      await store.put('c/x', Buffer.from('x'), { contentType: 'text/plain' });
      const get = await store.presignGet('c/x', { expiresInMs: 60_000 });
      const unsigned = await fetch(new URL(`${SIGNED_BLOB_PATH}c/x`, baseUrl));
      expect(await unsigned.json()).toEqual({ code: 'SIGNATURE_INVALID' });
      const other = await fetch(new URL(get.url.replace('method=GET', 'method=PUT'), baseUrl), { method: 'PUT', body: 'y' });
      expect(await other.json()).toEqual({ code: 'SIGNATURE_INVALID' });
      const expired = await store.presignGet('c/x', { expiresInMs: -5_000 });
      const res = await fetch(new URL(expired.url, baseUrl));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: 'SIGNATURE_EXPIRED' });
    } finally {
      await close();
    }
  });
});
