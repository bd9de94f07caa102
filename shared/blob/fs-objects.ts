import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { assertBlobKey, type BlobInfo, type BlobStore, InvalidPartError, NoSuchUploadError, sameEtag } from './types.js';
import { type Fingerprint, fingerprint, type FsLayout, hashFile, missingIsNull, recordedSizes, sameFingerprint, UPLOAD_ID } from './fs-layout.js';

/** Objects: their bytes, info, integrity and the space they use. */
export function fsObjects(files: FsLayout): Pick<BlobStore, 'put' | 'get' | 'stat' | 'digest' | 'promote' | 'verify' | 'delete' | 'deleteFolder' | 'usage'> {
  const { dataPath, metaPath, readInfo, readMeta, writeMeta, now } = files;
  return {
    async put(key, data, putOptions) {
      const source = Buffer.isBuffer(data) ? Readable.from([data]) : data;
      const written = await files.writeAtomically(dataPath(key), source, putOptions.maxBytes ?? Number.POSITIVE_INFINITY);
      const info: BlobInfo = { key, size: written.size, contentType: putOptions.contentType, sha256: written.sha256, createdAt: now() };
      await files.install(written.tmp, key, info);
      return info;
    },
    async get(key, getOptions) {
      const info = await readInfo(key);
      if (!info) return null;
      try {
        await stat(dataPath(key));
      } catch {
        return null;
      }
      return { info, stream: createReadStream(dataPath(key), getOptions?.range ? { start: getOptions.range.start, end: getOptions.range.end } : {}) };
    },
    stat: readInfo,
    async digest(key) {
      // Every byte of a file-system blob passed through `put`, which hashed it.
      const info = await readInfo(key);
      return info ? { size: info.size, sha256: info.sha256 } : null;
    },
    async promote(from, to) {
      const info = await readInfo(from);
      if (!info) return null;
      await mkdir(dirname(dataPath(to)), { recursive: true });
      try {
        await rename(dataPath(from), dataPath(to));
      } catch (err) {
        return missingIsNull(err);
      }
      await rm(metaPath(from), { force: true });
      // The renamed file is no longer reachable by any upload (a replayed PUT renames a new file to
      // `from`), so what is read here is what stays; its info from the upload is not trusted.
      const digest = await hashFile(dataPath(to));
      await writeMeta(to, { key: to, size: digest.size, contentType: info.contentType, sha256: digest.sha256, createdAt: now() });
      return digest;
    },
    async verify(key, expected) {
      const meta = await readMeta(key);
      if (!meta) return 'missing';
      let fp: Fingerprint;
      try {
        fp = await fingerprint(dataPath(key));
      } catch {
        return 'missing';
      }
      if (meta.info.sha256 !== expected.sha256 || meta.info.size !== expected.size) return 'altered';
      if (sameFingerprint(meta.fp, fp)) return 'intact';
      // The file was written since the store wrote it (or its info predates fingerprints, or the data
      // directory was restored from a copy): the bytes decide, and intact bytes get a new fingerprint.
      const digest = await hashFile(dataPath(key));
      if (digest.sha256 !== expected.sha256 || digest.size !== expected.size) return 'altered';
      await writeMeta(key, meta.info);
      return 'intact';
    },
    async delete(key) {
      const existed = (await readInfo(key)) !== null;
      await rm(metaPath(key), { force: true });
      await rm(dataPath(key), { force: true });
      return existed;
    },
    async deleteFolder(prefix) {
      // A folder is a key's directory: removing it removes every blob and info file under it.
      await rm(dataPath(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
    async usage(prefix) {
      const base = prefix === '' ? join(files.root, 'objects') : dataPath(prefix.replace(/\/$/, ''));
      let total = await recordedSizes(base);
      // A prefix naming one blob exactly.
      if (total === 0 && prefix !== '') total = (await readInfo(prefix))?.size ?? 0;
      return total;
    },
  };
}

/** Multipart uploads: parts under `root/uploads/<uploadId>/`, joined into the object through `put`. */
export function fsMultipart(files: FsLayout, put: BlobStore['put']): Pick<BlobStore, 'startMultipart' | 'completeMultipart' | 'abortMultipart' | 'openMultipartUploads'> {
  const { uploadDir, readUpload } = files;
  return {
    async startMultipart(key, o) {
      assertBlobKey(key);
      const uploadId = randomBytes(16).toString('hex');
      await mkdir(uploadDir(uploadId), { recursive: true });
      await writeFile(join(uploadDir(uploadId), 'upload.json'), JSON.stringify({ key, contentType: o.contentType, createdAt: files.now().toISOString() }), { mode: 0o600, flush: true });
      return uploadId;
    },
    async completeMultipart(key, uploadId, parts) {
      const upload = await readUpload(uploadId);
      if (!upload || upload.key !== key) throw new NoSuchUploadError(uploadId);
      const dir = uploadDir(uploadId);
      let previous = 0;
      for (const part of parts) {
        if (part.partNumber <= previous) throw new InvalidPartError(part.partNumber, 'Parts must be listed once each, in ascending order');
        previous = part.partNumber;
        const etag = await readFile(join(dir, `${part.partNumber}.etag`), 'utf8').catch(() => null);
        if (etag === null || !sameEtag(etag, part.etag)) throw new InvalidPartError(part.partNumber);
      }
      if (parts.length === 0) throw new InvalidPartError(0, 'At least one part is needed');
      const joined = new PassThrough();
      const feed = (async () => {
        for (const part of parts) {
          for await (const chunk of createReadStream(join(dir, String(part.partNumber)))) {
            if (!joined.write(chunk)) await new Promise((resolve) => joined.once('drain', resolve));
          }
        }
        joined.end();
      })().catch((err: unknown) => joined.destroy(err as Error));
      await put(key, joined, { contentType: upload.contentType });
      await feed;
      await rm(dir, { recursive: true, force: true });
    },
    async abortMultipart(_key, uploadId) {
      if (!UPLOAD_ID.test(uploadId)) return;
      await rm(uploadDir(uploadId), { recursive: true, force: true });
    },
    async openMultipartUploads(prefix) {
      let ids: string[];
      try {
        ids = await readdir(join(files.root, 'uploads'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const open: { key: string; uploadId: string }[] = [];
      for (const uploadId of ids.filter((id) => UPLOAD_ID.test(id))) {
        const upload = await readUpload(uploadId);
        if (upload && (prefix === '' || upload.key === prefix || upload.key.startsWith(`${prefix.replace(/\/$/, '')}/`))) open.push({ key: upload.key, uploadId });
      }
      return open;
    },
  };
}
