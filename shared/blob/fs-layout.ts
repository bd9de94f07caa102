import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import { assertBlobKey, type BlobInfo, NoSuchUploadError } from './types.js';
import { digestOf, meteredStream } from './bytes.js';

/** The id of a multipart upload (the name of its folder under `root/uploads`). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Which file a blob's bytes are, as the store noted when it wrote them: a write to the file by anyone else changes its change time. */
export interface Fingerprint {
  ino: string;
  ctime: string;
  size: number;
}

export const fingerprint = async (path: string): Promise<Fingerprint> => {
  const s = await stat(path, { bigint: true });
  return { ino: String(s.ino), ctime: String(s.ctimeNs), size: Number(s.size) };
};
export const sameFingerprint = (a: Fingerprint | undefined, b: Fingerprint) => a !== undefined && a.ino === b.ino && a.ctime === b.ctime && a.size === b.size;

/** Size and SHA-256 of a file, read through. */
export const hashFile = (path: string) => digestOf(createReadStream(path, { highWaterMark: 1024 * 1024 }));

/** A serve-time check found bytes other than the ones the URL was signed for. */
export const integrityFailed = (key: string) => new AppError('FILE_INTEGRITY_FAILED', `The stored bytes of ${key.split('/').pop()} are not the ones recorded: they were changed outside the platform`);

export const missingIsNull = (err: unknown): null => {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw err;
};

export interface UploadRecord {
  key: string;
  contentType: string;
  createdAt: string;
}

/** Where the store keeps what under `root`, and the few atomic file operations every method builds on. */
export function fsLayout(root: string, now: () => Date) {
  const dataPath = (key: string) => {
    assertBlobKey(key);
    return join(root, 'objects', key);
  };
  const metaPath = (key: string) => `${dataPath(key)}.meta.json`;
  const uploadDir = (uploadId: string) => {
    if (!UPLOAD_ID.test(uploadId)) throw new NoSuchUploadError(uploadId);
    return join(root, 'uploads', uploadId);
  };

  const readMeta = async (key: string): Promise<{ info: BlobInfo; fp: Fingerprint | undefined } | null> => {
    try {
      const { fp, ...raw } = JSON.parse(await readFile(metaPath(key), 'utf8')) as Omit<BlobInfo, 'createdAt'> & { createdAt: string; fp?: Fingerprint };
      return { info: { ...raw, createdAt: new Date(raw.createdAt) }, fp };
    } catch (err) {
      return missingIsNull(err);
    }
  };
  const readInfo = async (key: string): Promise<BlobInfo | null> => (await readMeta(key))?.info ?? null;

  /** Records a blob's info, with the fingerprint of its file as it is now, beside it (written aside and renamed into place). */
  const writeMeta = async (key: string, info: BlobInfo) => {
    const fp = await fingerprint(dataPath(key));
    const tmp = join(dirname(dataPath(key)), `.${randomUUID()}.meta-tmp`);
    try {
      await writeFile(tmp, JSON.stringify({ ...info, fp }), { mode: 0o600, flush: true });
      await rename(tmp, metaPath(key));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  };

  /** Renames a fully written temporary file into place as `key`'s bytes, then records its info. */
  const install = async (tmp: string, key: string, info: BlobInfo) => {
    try {
      await rename(tmp, dataPath(key));
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    await writeMeta(key, info);
  };

  const readUpload = async (uploadId: string): Promise<UploadRecord | null> => {
    try {
      return JSON.parse(await readFile(join(uploadDir(uploadId), 'upload.json'), 'utf8')) as UploadRecord;
    } catch (err) {
      return missingIsNull(err);
    }
  };

  /** Streams `source` into a new file beside `target` and renames it into place; answers size and hash. */
  const writeAtomically = async (target: string, source: Readable, maxBytes: number, exactBytes?: number) => {
    await mkdir(dirname(target), { recursive: true });
    const tmp = join(dirname(target), `.${randomUUID()}.tmp`);
    const meter = meteredStream(maxBytes);
    try {
      // A large buffer lets the stream hand the file system many socket chunks per write (writev).
      await pipeline(source, meter.stream, createWriteStream(tmp, { flags: 'wx', mode: 0o600, flush: true, highWaterMark: 1024 * 1024 }));
      if (exactBytes !== undefined && meter.size !== exactBytes) throw new AppError('SIZE_MISMATCH', `The upload ended after ${meter.size} of ${exactBytes} bytes`);
      return { tmp, size: meter.size, sha256: meter.sha256() };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  };

  return { root, now, dataPath, metaPath, uploadDir, readMeta, readInfo, writeMeta, install, readUpload, writeAtomically };
}

export type FsLayout = ReturnType<typeof fsLayout>;

/** The sum of the sizes recorded in the info files under `dir` (0 when it is no folder). */
export async function recordedSizes(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return 0;
    throw err;
  }
  let total = 0;
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await recordedSizes(p);
    else if (e.name.endsWith('.meta.json')) total += (JSON.parse(await readFile(p, 'utf8')) as BlobInfo).size;
  }
  return total;
}
