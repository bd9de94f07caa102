import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertBlobKey, BlobTooLargeError, type BlobInfo, type BlobStore } from './types.js';

/**
 * Blobs as files under `root` (the embedded default: `DATA_DIR/blobs`). A blob is written to a
 * temporary file, fsynced and renamed into place, so a reader sees the old or the new bytes, never a
 * half-written file; its info lives in a `.meta.json` beside it.
 */
export function createFsBlobStore(root: string): BlobStore {
  const dataPath = (key: string) => {
    assertBlobKey(key);
    return join(root, 'objects', key);
  };
  const metaPath = (key: string) => `${dataPath(key)}.meta.json`;

  const readInfo = async (key: string): Promise<BlobInfo | null> => {
    try {
      const raw = JSON.parse(await readFile(metaPath(key), 'utf8')) as Omit<BlobInfo, 'createdAt'> & { createdAt: string };
      return { ...raw, createdAt: new Date(raw.createdAt) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };

  return {
    kind: 'fs',
    async put(key, data, options) {
      const target = dataPath(key);
      await mkdir(dirname(target), { recursive: true });
      const tmp = join(dirname(target), `.${randomUUID()}.tmp`);
      const hash = createHash('sha256');
      let size = 0;
      const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > max) return done(new BlobTooLargeError(max));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      const source = Buffer.isBuffer(data) ? Readable.from([data]) : data;
      try {
        const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
        await pipeline(source, meter, out);
        const info: BlobInfo = { key, size, contentType: options.contentType, sha256: hash.digest('hex'), createdAt: new Date() };
        await writeFile(`${tmp}.meta`, JSON.stringify(info), { mode: 0o600, flush: true });
        await rename(tmp, target);
        await rename(`${tmp}.meta`, metaPath(key));
        return info;
      } catch (err) {
        await rm(tmp, { force: true });
        await rm(`${tmp}.meta`, { force: true });
        throw err;
      }
    },
    async get(key) {
      const info = await readInfo(key);
      if (!info) return null;
      try {
        await stat(dataPath(key));
      } catch {
        return null;
      }
      return { info, stream: createReadStream(dataPath(key)) };
    },
    stat: readInfo,
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
      const base = prefix === '' ? join(root, 'objects') : dataPath(prefix.replace(/\/$/, ''));
      let total = 0;
      const walk = async (dir: string): Promise<void> => {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
          throw err;
        }
        for (const e of entries) {
          const p = join(dir, e.name);
          if (e.isDirectory()) await walk(p);
          else if (e.name.endsWith('.meta.json')) total += (JSON.parse(await readFile(p, 'utf8')) as BlobInfo).size;
        }
      };
      await walk(base);
      // A prefix naming one blob exactly.
      if (total === 0 && prefix !== '') total = (await readInfo(prefix))?.size ?? 0;
      return total;
    },
  };
}
