import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import { assertBlobKey, type BlobStore, BlobTooLargeError, NoSuchUploadError, type SignedRequest } from './types.js';
import type { UrlSigner } from './url-signer.js';
import { safeFileName } from './bytes.js';
import { byteRange } from './range.js';
import { type FsLayout, integrityFailed, UPLOAD_ID } from './fs-layout.js';

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
  /** A GET's `Range` header, when sent: answered with 206 and those bytes. */
  range?: string | undefined;
}

/** The answer to a signed request. */
export interface SignedBlobResponse {
  status: number;
  headers: Record<string, string>;
  body: Readable | null;
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

/** Signing grants into URLs of the platform's own route, and checking them when they come back. */
export function fsGrants(signer: UrlSigner | undefined, now: () => Date) {
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
export async function serveSignedGet(store: Pick<BlobStore, 'verify' | 'get' | 'stat'>, grant: Grant, hooks: SignedBlobHooks, rangeHeader?: string): Promise<SignedBlobResponse> {
  if (grant.sha256 !== undefined) {
    const state = await store.verify(grant.key, { size: Number(grant.size), sha256: grant.sha256 });
    if (state === 'missing') throw new AppError('NOT_FOUND', 'No such object');
    if (state === 'altered') {
      hooks.onAltered?.(grant.key);
      throw integrityFailed(grant.key);
    }
  }
  const size = rangeHeader ? (await store.stat(grant.key))?.size : undefined;
  const range = size === undefined ? null : byteRange(rangeHeader, size);
  if (range === 'unsatisfiable') throw new AppError('RANGE_NOT_SATISFIABLE', `The object has ${size} bytes`, { headers: { 'content-range': `bytes */${size}` } });
  const blob = await store.get(grant.key, range ? { range } : {});
  if (!blob) throw new AppError('NOT_FOUND', 'No such object');
  const headers: Record<string, string> = {
    'content-type': blob.info.contentType,
    'content-length': String(range ? range.end - range.start + 1 : blob.info.size),
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  };
  if (grant.filename) headers['content-disposition'] = `attachment; filename="${grant.filename}"`;
  if (range) return { status: 206, headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${blob.info.size}` }, body: blob.stream };
  return { status: 200, headers, body: blob.stream };
}

/** A PUT through a signed URL: exactly the signed size, into the object or into one part of an upload. */
export async function serveSignedPut(files: FsLayout, request: SignedBlobRequest, grant: Grant, hooks: SignedBlobHooks): Promise<SignedBlobResponse> {
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
