import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import {
  assertBlobKey,
  BlobTooLargeError,
  InvalidPartError,
  NoSuchUploadError,
  sameEtag,
  type BlobInfo,
  type BlobStore,
  type SignedRequest,
} from './types.js';
import type { UrlSigner } from './url-signer.js';
import { digestOf, meteredStream, safeFileName } from './bytes.js';

/** Where the platform serves the URLs the file-system store signs (the df module's route, behind `/df`). */
export const SIGNED_BLOB_PATH = '/df/api/files/blobs/';

/** A request to a URL the file-system store signed, as the HTTP route hands it over. */
export interface SignedBlobRequest {
  method: string;
  /** The path after `SIGNED_BLOB_PATH`: the object's key. */
  key: string;
  query: Record<string, string | undefined>;
  /** The declared `content-length`, when sent. */
  contentLength?: number | undefined;
  body: Readable | null;
}

/** The answer to a signed request. */
export interface SignedBlobResponse {
  status: number;
  headers: Record<string, string>;
  body: Readable | null;
}

/** The file-system store also answers the URLs it signs (the platform serves them: no bearer token, the signature is the credential). */
export interface FsBlobStore extends BlobStore {
  readonly kind: 'fs';
  serveSigned(request: SignedBlobRequest, hooks?: SignedBlobHooks): Promise<SignedBlobResponse>;
}

/** What the route serving signed URLs adds to the signature's checks. */
export interface SignedBlobHooks {
  /** Runs once a PUT's signature is checked, before any byte is read: throws to refuse the write (a confirmed upload is closed). */
  beforeWrite?(key: string): Promise<void>;
  /** Told when a GET found bytes other than those it was signed for (before the refusal). */
  onAltered?(key: string): void;
}

interface Grant {
  method: 'GET' | 'PUT';
  key: string;
  expires: number;
  size?: string | undefined;
  type?: string | undefined;
  upload?: string | undefined;
  part?: string | undefined;
  filename?: string | undefined;
  /** GET only: the SHA-256 the bytes must have (with `size`, the expected size). */
  sha256?: string | undefined;
}

/** The exact text a URL's signature covers: every field that decides what the request may do. */
const canonical = (g: Grant) =>
  ['qa-blob-v1', g.method, g.key, g.expires, g.size ?? '', g.type ?? '', g.upload ?? '', g.part ?? '', g.filename ?? '', ...(g.sha256 !== undefined ? [g.sha256] : [])].join('\n');

const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** Which file a blob's bytes are, as the store noted when it wrote them: a write to the file by anyone else changes its change time. */
interface Fingerprint {
  ino: string;
  ctime: string;
  size: number;
}

const fingerprint = async (path: string): Promise<Fingerprint> => {
  const s = await stat(path, { bigint: true });
  return { ino: String(s.ino), ctime: String(s.ctimeNs), size: Number(s.size) };
};
const sameFingerprint = (a: Fingerprint | undefined, b: Fingerprint) => a !== undefined && a.ino === b.ino && a.ctime === b.ctime && a.size === b.size;

/** Size and SHA-256 of a file, read through. */
const hashFile = (path: string) => digestOf(createReadStream(path, { highWaterMark: 1024 * 1024 }));

/** A serve-time check found bytes other than the ones the URL was signed for. */
const integrityFailed = (key: string) => new AppError('FILE_INTEGRITY_FAILED', `The stored bytes of ${key.split('/').pop()} are not the ones recorded: they were changed outside the platform`);

const missingIsNull = (err: unknown): null => {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw err;
};

interface UploadRecord {
  key: string;
  contentType: string;
  createdAt: string;
}

/** Where the store keeps what under `root`, and the few atomic file operations every method builds on. */
function fsLayout(root: string, now: () => Date) {
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

type FsLayout = ReturnType<typeof fsLayout>;

/** The sum of the sizes recorded in the info files under `dir` (0 when it is no folder). */
async function recordedSizes(dir: string): Promise<number> {
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

/** Objects: their bytes, info, integrity and the space they use. */
function fsObjects(files: FsLayout): Pick<BlobStore, 'put' | 'get' | 'stat' | 'digest' | 'promote' | 'verify' | 'delete' | 'deleteFolder' | 'usage'> {
  const { dataPath, metaPath, readInfo, readMeta, writeMeta, now } = files;
  return {
    async put(key, data, putOptions) {
      const source = Buffer.isBuffer(data) ? Readable.from([data]) : data;
      const written = await files.writeAtomically(dataPath(key), source, putOptions.maxBytes ?? Number.POSITIVE_INFINITY);
      const info: BlobInfo = { key, size: written.size, contentType: putOptions.contentType, sha256: written.sha256, createdAt: now() };
      await files.install(written.tmp, key, info);
      return info;
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
function fsMultipart(files: FsLayout, put: BlobStore['put']): Pick<BlobStore, 'startMultipart' | 'completeMultipart' | 'abortMultipart' | 'openMultipartUploads'> {
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

/** Signing grants into URLs of the platform's own route, and checking them when they come back. */
function fsGrants(signer: UrlSigner | undefined, now: () => Date) {
  const expiry = (ms: number) => Math.ceil((now().getTime() + ms) / 1000);

  async function sign(grant: Grant, headers: Record<string, string>): Promise<SignedRequest> {
    if (!signer) throw new Error('This blob store has no URL signer');
    const { kid, signature } = await signer.sign(canonical(grant));
    const query = new URLSearchParams();
    query.set('method', grant.method);
    query.set('expires', String(grant.expires));
    for (const field of ['size', 'type', 'upload', 'part', 'filename', 'sha256'] as const) if (grant[field] !== undefined) query.set(field, grant[field]);
    query.set('kid', kid);
    query.set('signature', signature);
    return { url: `${SIGNED_BLOB_PATH}${grant.key}?${query.toString()}`, method: grant.method, headers, expiresAt: new Date(grant.expires * 1000) };
  }

  /** The grant of a correctly signed, unexpired URL used with its own method; a clear refusal otherwise. */
  async function check(request: SignedBlobRequest): Promise<Grant> {
    const q = request.query;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (!signer || !q.signature || !q.kid || !q.expires || !/^\d{1,12}$/.test(q.expires)) {
      throw new AppError('SIGNATURE_INVALID', 'This URL is not signed: ask the API for a new one');
    }
    try {
      assertBlobKey(request.key);
    } catch {
      throw new AppError('SIGNATURE_INVALID', 'The URL does not name an object');
    }
    const grant: Grant = { method: q.method === 'PUT' ? 'PUT' : 'GET', key: request.key, expires: Number(q.expires), size: q.size, type: q.type, upload: q.upload, part: q.part, filename: q.filename, sha256: q.sha256 };
    const valid = (q.method === 'GET' || q.method === 'PUT') && (await signer.verify(canonical(grant), q.kid, q.signature));
    if (!valid) throw new AppError('SIGNATURE_INVALID', 'The signature does not match this object, method and limits');
    if (grant.method !== method) throw new AppError('SIGNATURE_INVALID', `This URL is signed for ${grant.method}, not ${request.method}`);
    if (grant.expires * 1000 <= now().getTime()) throw new AppError('SIGNATURE_EXPIRED', `The URL expired at ${new Date(grant.expires * 1000).toISOString()}: ask the API for a new one`);
    if (grant.method === 'PUT' && !/^\d{1,15}$/.test(grant.size ?? '')) throw new AppError('SIGNATURE_INVALID', 'The URL has no size');
    return grant;
  }

  const presign: Pick<BlobStore, 'presignPut' | 'presignGet' | 'presignPart'> = {
    async presignPut(key, o) {
      assertBlobKey(key);
      return sign({ method: 'PUT', key, expires: expiry(o.expiresInMs), size: String(o.size), type: o.contentType }, { 'content-type': o.contentType });
    },
    async presignGet(key, o) {
      assertBlobKey(key);
      const filename = o.fileName ? safeFileName(o.fileName) || 'download' : undefined;
      return sign({ method: 'GET', key, expires: expiry(o.expiresInMs), filename, ...(o.expect ? { size: String(o.expect.size), sha256: o.expect.sha256 } : {}) }, {});
    },
    async presignPart(key, uploadId, partNumber, o) {
      assertBlobKey(key);
      if (!UPLOAD_ID.test(uploadId)) throw new NoSuchUploadError(uploadId);
      return sign({ method: 'PUT', key, expires: expiry(o.expiresInMs), size: String(o.size), upload: uploadId, part: String(partNumber) }, {});
    },
  };
  return { presign, check };
}

/** A GET through a signed URL: checked against the bytes it was signed for, when it names them. */
async function serveSignedGet(store: Pick<BlobStore, 'verify' | 'get'>, grant: Grant, hooks: SignedBlobHooks): Promise<SignedBlobResponse> {
  if (grant.sha256 !== undefined) {
    const state = await store.verify(grant.key, { size: Number(grant.size), sha256: grant.sha256 });
    if (state === 'missing') throw new AppError('NOT_FOUND', 'No such object');
    if (state === 'altered') {
      hooks.onAltered?.(grant.key);
      throw integrityFailed(grant.key);
    }
  }
  const blob = await store.get(grant.key);
  if (!blob) throw new AppError('NOT_FOUND', 'No such object');
  const headers: Record<string, string> = {
    'content-type': blob.info.contentType,
    'content-length': String(blob.info.size),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  };
  if (grant.filename) headers['content-disposition'] = `attachment; filename="${grant.filename}"`;
  return { status: 200, headers, body: blob.stream };
}

/** A PUT through a signed URL: exactly the signed size, into the object or into one part of an upload. */
async function serveSignedPut(files: FsLayout, request: SignedBlobRequest, grant: Grant, hooks: SignedBlobHooks): Promise<SignedBlobResponse> {
  await hooks.beforeWrite?.(grant.key);
  const size = Number(grant.size);
  if (request.contentLength !== undefined && request.contentLength !== size) {
    request.body?.resume();
    throw new AppError(request.contentLength > size ? 'PAYLOAD_TOO_LARGE' : 'SIZE_MISMATCH', `This URL takes exactly ${size} bytes; the request declares ${request.contentLength}`);
  }
  const body = request.body ?? Readable.from([]);
  try {
    if (grant.upload) {
      const upload = await files.readUpload(grant.upload);
      if (!upload || upload.key !== grant.key) throw new AppError('NOT_FOUND', 'The multipart upload is not open (completed, aborted or unknown)');
      const dir = files.uploadDir(grant.upload);
      const written = await files.writeAtomically(join(dir, grant.part!), body, size, size);
      const etag = `"${written.sha256.slice(0, 32)}"`;
      await writeFile(`${written.tmp}.etag`, etag, { flush: true });
      await rename(written.tmp, join(dir, grant.part!));
      await rename(`${written.tmp}.etag`, join(dir, `${grant.part!}.etag`));
      return { status: 200, headers: { etag }, body: null };
    }
    const written = await files.writeAtomically(files.dataPath(grant.key), body, size, size);
    await files.install(written.tmp, grant.key, { key: grant.key, size: written.size, contentType: grant.type ?? 'application/octet-stream', sha256: written.sha256, createdAt: files.now() });
    return { status: 200, headers: { etag: `"${written.sha256.slice(0, 32)}"` }, body: null };
  } catch (err) {
    if (err instanceof BlobTooLargeError) throw new AppError('PAYLOAD_TOO_LARGE', `This URL takes exactly ${size} bytes`);
    throw err;
  }
}

/**
 * Blobs as files under `root` (the embedded default: `DATA_DIR/blobs`). A blob is written to a
 * temporary file, fsynced and renamed into place, so a reader sees the old or the new bytes, never a
 * half-written file; its info lives in a `.meta.json` beside it, with the file's fingerprint (inode,
 * change time in nanoseconds, size) as the store left it, so `verify` knows without reading the bytes
 * whether anyone wrote the file since. Multipart uploads keep their parts
 * under `root/uploads/<uploadId>/` until completed (joined into the object) or aborted (removed).
 * Signed URLs point at the platform's own route (`SIGNED_BLOB_PATH`) and are checked by `serveSigned`.
 */
export function createFsBlobStore(root: string, options: { signer?: UrlSigner; now?: () => Date } = {}): FsBlobStore {
  const files = fsLayout(root, options.now ?? (() => new Date()));
  const objects = fsObjects(files);
  const grants = fsGrants(options.signer, files.now);
  return {
    kind: 'fs',
    ...objects,
    ...grants.presign,
    ...fsMultipart(files, objects.put),
    async serveSigned(request, hooks = {}) {
      const grant = await grants.check(request);
      return grant.method === 'GET' ? serveSignedGet(objects, grant, hooks) : serveSignedPut(files, request, grant, hooks);
    },
  };
}
