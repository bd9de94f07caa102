import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError, InvalidBlobKeyError, InvalidPartError, type BlobStore, type SignedRequest } from './index.js';

/** How the contract reaches one adapter. */
export interface BlobContractTarget {
  /** A store whose keys start nowhere near another run's (a fresh root or prefix); `baseUrl` resolves relative signed URLs. */
  open(): Promise<{ store: BlobStore; baseUrl?: string; close(): Promise<void>; tamper(key: string, bytes: Buffer): Promise<void> }>;
  /**
   * Whether the server checks what it is sent against what was signed and started: the signature, the
   * signed size, the ETags of completed parts (s3rver checks none of these, only the expiry).
   */
  strict: boolean;
  /** Whether the server aborts and lists multipart uploads (s3rver 3.7 answers both "not implemented"). */
  abortsAndListsUploads: boolean;
  /** Why the suite cannot run here (reported as skipped, with the reason in its name); absent: it runs. */
  skipBecause?: string;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The smallest part S3 accepts (all but the last). */
const PART = 5 * 1024 * 1024;

/** The blob-store port's contract: every adapter must pass it. */
// Long on purpose: a contract suite is one list of cases sharing the subject opened once in its describe block; read top to bottom, each `it` is one clause of the port's contract, and splitting it would only scatter that shared setup.
export function blobStoreContract(name: string, target: BlobContractTarget): void {
  describe.skipIf(target.skipBecause !== undefined)(`blob store contract: ${name}${target.skipBecause ? ` (skipped: ${target.skipBecause})` : ''}`, () => {
    let store: BlobStore;
    let baseUrl: string | undefined;
    let close: () => Promise<void>;
    /** Writes a blob's bytes behind the store's back (the file itself, or the object through the bucket's own API). */
    let tamper: (key: string, bytes: Buffer) => Promise<void>;
    const run = randomBytes(4).toString('hex');
    const key = (k: string) => `c-${run}/${k}`;

    beforeAll(async () => {
      ({ store, baseUrl, close, tamper } = await target.open());
    }, 60_000);
    afterAll(async () => {
      await store.deleteFolder(`c-${run}`);
      await close();
    });

    const send = (req: SignedRequest, body?: Buffer, overrides: { method?: string; url?: string } = {}) =>
      fetch(new URL(overrides.url ?? req.url, baseUrl), { method: overrides.method ?? req.method, headers: req.headers, ...(body ? { body: new Uint8Array(body) } : {}) });

    it('stores, reads back with info, replaces, digests and deletes', async () => {
      const info = await store.put(key('users/7/image'), Buffer.from('first'), { contentType: 'image/png' });
      expect(info).toMatchObject({ key: key('users/7/image'), size: 5, contentType: 'image/png', sha256: sha(Buffer.from('first')) });
      await store.put(key('users/7/image'), Readable.from([Buffer.from('second!')]), { contentType: 'image/jpeg' });
      const got = await store.get(key('users/7/image'));
      expect(got!.info.contentType).toBe('image/jpeg');
      expect(await text(got!.stream)).toBe('second!');
      const part = await store.get(key('users/7/image'), { range: { start: 2, end: 4 } });
      expect(part!.info.size).toBe(7);
      expect(await text(part!.stream)).toBe('con');
      expect(await store.digest(key('users/7/image'))).toEqual({ size: 7, sha256: sha(Buffer.from('second!')) });
      expect(await store.usage(key('users'))).toBe(7);
      expect(await store.delete(key('users/7/image'))).toBe(true);
      expect(await store.get(key('users/7/image'))).toBeNull();
      expect(await store.stat(key('users/7/image'))).toBeNull();
      expect(await store.digest(key('users/7/image'))).toBeNull();
      expect(await store.delete(key('users/7/image'))).toBe(false);
    });

    it('deletes a folder of keys and nothing beside it', async () => {
      await store.put(key('sessions/s1/a.png'), Buffer.from('a'), { contentType: 'image/png' });
      await store.put(key('sessions/s1/rec/m.json'), Buffer.from('{}'), { contentType: 'application/json' });
      await store.put(key('sessions/s10/keep.png'), Buffer.from('k'), { contentType: 'image/png' });
      await store.deleteFolder(key('sessions/s1'));
      expect(await store.get(key('sessions/s1/a.png'))).toBeNull();
      expect(await store.get(key('sessions/s1/rec/m.json'))).toBeNull();
      expect(await store.usage(key('sessions'))).toBe(1);
      await store.deleteFolder(key('sessions/nothing-here'));
      await expect(store.deleteFolder('../outside')).rejects.toBeInstanceOf(InvalidBlobKeyError);
    });

    it('refuses keys that could leave the storage root', async () => {
      for (const bad of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', 'a/./b', 'sp ace', '']) {
        await expect(store.put(bad, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.get(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(store.presignPut(bad, { contentType: 'text/plain', size: 1, expiresInMs: 60_000 })).rejects.toBeInstanceOf(InvalidBlobKeyError);
      }
    });

    it('refuses an upload over its size limit and leaves nothing behind', async () => {
      const big = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
      await expect(store.put(key('limits/big'), big, { contentType: 'application/octet-stream', maxBytes: 1000 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await store.stat(key('limits/big'))).toBeNull();
    });

    it('takes a presigned PUT of exactly the signed bytes and serves them by a presigned GET', async () => {
      const bytes = randomBytes(70_000);
      const put = await store.presignPut(key('files/one'), { contentType: 'application/vnd.android.package-archive', size: bytes.length, expiresInMs: 60_000 });
      expect(put.method).toBe('PUT');
      expect(put.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
      const res = await send(put, bytes);
      expect(res.status).toBe(200);
      expect(await store.digest(key('files/one'))).toEqual({ size: bytes.length, sha256: sha(bytes) });
      expect((await store.stat(key('files/one')))!.contentType).toBe('application/vnd.android.package-archive');
      const get = await store.presignGet(key('files/one'), { expiresInMs: 60_000, fileName: 'build 1.apk' });
      const down = await send(get);
      expect(down.status).toBe(200);
      expect(down.headers.get('content-disposition')).toContain('build 1.apk');
      expect(Buffer.from(await down.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it.runIf(target.strict)('refuses a presigned PUT of another size, and stores nothing', async () => {
      const put = await store.presignPut(key('files/sized'), { contentType: 'text/plain', size: 10, expiresInMs: 60_000 });
      const res = await send(put, Buffer.alloc(11, 1));
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await store.stat(key('files/sized'))).toBeNull();
    });

    it('refuses an expired URL', async () => {
      await store.put(key('files/old'), Buffer.from('old'), { contentType: 'text/plain' });
      const get = await store.presignGet(key('files/old'), { expiresInMs: 1000 });
      await new Promise((r) => setTimeout(r, Math.max(0, get.expiresAt.getTime() - Date.now()) + 1100));
      const res = await send(get);
      expect(res.status).toBe(403);
      const put = await store.presignPut(key('files/late'), { contentType: 'text/plain', size: 3, expiresInMs: 1000 });
      await new Promise((r) => setTimeout(r, Math.max(0, put.expiresAt.getTime() - Date.now()) + 1100));
      expect((await send(put, Buffer.from('abc'))).status).toBe(403);
      expect(await store.stat(key('files/late'))).toBeNull();
    });

    it.runIf(target.strict)('refuses a URL used for another object or with another method', async () => {
      await store.put(key('files/mine'), Buffer.from('mine'), { contentType: 'text/plain' });
      await store.put(key('files/theirs'), Buffer.from('theirs'), { contentType: 'text/plain' });
      const get = await store.presignGet(key('files/mine'), { expiresInMs: 60_000 });
      const other = get.url.replace('files/mine', 'files/theirs');
      expect((await send(get, undefined, { url: other })).status).toBe(403);
      expect((await send(get, Buffer.from('overwrite'), { method: 'PUT' })).status).toBe(403);
      const tampered = get.url.replace(/(signature|Signature)=([A-Za-z0-9_-])/, (_m, n: string, c: string) => `${n}=${c === 'A' ? 'B' : 'A'}`);
      expect((await send(get, undefined, { url: tampered })).status).toBe(403);
      expect(await text((await store.get(key('files/mine')))!.stream)).toBe('mine');
    });

    it('promotes uploaded bytes to a key no URL names, hashing them there: the upload URL used again changes nothing of them', async () => {
      const first = randomBytes(4096);
      const second = randomBytes(4096);
      const put = await store.presignPut(key('uploads/p1'), { contentType: 'application/x-test', size: first.length, expiresInMs: 60_000 });
      expect((await send(put, first)).status).toBe(200);
      expect(await store.promote(key('uploads/p1'), key('files/p1'))).toEqual({ size: first.length, sha256: sha(first) });
      expect(await store.stat(key('uploads/p1'))).toBeNull();
      expect(await store.digest(key('files/p1'))).toEqual({ size: first.length, sha256: sha(first) });
      expect((await store.stat(key('files/p1')))!.contentType).toBe('application/x-test');
      // S3 cannot revoke its URL (and the file system's route refuses it, which this store alone does not know to do): it writes the upload key only.
      expect((await send(put, second)).status).toBe(200);
      expect((await buffer((await store.get(key('files/p1')))!.stream)).equals(first)).toBe(true);
      expect(await store.verify(key('files/p1'), { size: first.length, sha256: sha(first) })).toBe('intact');
      expect(await store.promote(key('uploads/none'), key('files/none'))).toBeNull();
      expect(await store.stat(key('files/none'))).toBeNull();
    });

    it('tells bytes changed behind its back from intact ones, and intact ones stay intact', async () => {
      const bytes = randomBytes(2048);
      await store.put(key('files/v1'), bytes, { contentType: 'application/octet-stream' });
      const expected = { size: bytes.length, sha256: sha(bytes) };
      expect(await store.verify(key('files/v1'), expected)).toBe('intact');
      expect(await store.verify(key('files/v1'), { ...expected, sha256: sha(Buffer.from('other')) })).toBe('altered');
      expect(await store.verify(key('files/absent'), expected)).toBe('missing');
      await tamper(key('files/v1'), randomBytes(bytes.length));
      expect(await store.verify(key('files/v1'), expected)).toBe('altered');
      // The same bytes written back behind its back are the recorded ones again.
      await tamper(key('files/v1'), bytes);
      expect(await store.verify(key('files/v1'), expected)).toBe('intact');
      expect(await store.verify(key('files/v1'), expected)).toBe('intact');
    });

    it('joins a multipart upload in order, a retried part replacing the first try, and lists open uploads until done', async () => {
      const parts = [randomBytes(PART), randomBytes(PART), randomBytes(1234)];
      const uploadId = await store.startMultipart(key('big/file'), { contentType: 'application/zip' });
      if (target.abortsAndListsUploads) expect(await store.openMultipartUploads(`c-${run}`)).toContainEqual({ key: key('big/file'), uploadId });
      const etags: string[] = [];
      for (const [i, bytes] of parts.entries()) {
        const url = await store.presignPart(key('big/file'), uploadId, i + 1, { size: bytes.length, expiresInMs: 60_000 });
        if (i === 1) {
          // A first try with the wrong bytes (a client that retries after a broken connection sends the part again).
          const wrong = await send(url, randomBytes(PART));
          expect(wrong.status).toBe(200);
        }
        const res = await send(url, bytes);
        expect(res.status).toBe(200);
        etags.push(res.headers.get('etag')!);
      }
      if (target.strict) {
        await expect(store.completeMultipart(key('big/file'), uploadId, [{ partNumber: 1, etag: etags[0]! }, { partNumber: 2, etag: '"0000"' }, { partNumber: 3, etag: etags[2]! }])).rejects.toBeInstanceOf(
          InvalidPartError,
        );
        expect(await store.stat(key('big/file'))).toBeNull();
      }
      await store.completeMultipart(
        key('big/file'),
        uploadId,
        etags.map((etag, i) => ({ partNumber: i + 1, etag })),
      );
      const all = Buffer.concat(parts);
      expect(await store.digest(key('big/file'))).toEqual({ size: all.length, sha256: sha(all) });
      expect((await store.stat(key('big/file')))!.contentType).toBe('application/zip');
      if (target.abortsAndListsUploads) expect(await store.openMultipartUploads(`c-${run}`)).not.toContainEqual(expect.objectContaining({ uploadId }));
    }, 60_000);

    it.runIf(target.abortsAndListsUploads)('aborting a multipart upload leaves nothing behind', async () => {
      const uploadId = await store.startMultipart(key('big/aborted'), { contentType: 'application/zip' });
      const url = await store.presignPart(key('big/aborted'), uploadId, 1, { size: 1000, expiresInMs: 60_000 });
      expect((await send(url, randomBytes(1000))).status).toBe(200);
      await store.abortMultipart(key('big/aborted'), uploadId);
      await store.abortMultipart(key('big/aborted'), uploadId);
      expect(await store.openMultipartUploads(`c-${run}`)).not.toContainEqual(expect.objectContaining({ uploadId }));
      expect(await store.stat(key('big/aborted'))).toBeNull();
      const late = await send(url, randomBytes(1000));
      expect(late.status).toBe(404);
    });
  });
}
