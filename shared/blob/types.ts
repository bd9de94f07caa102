import type { Readable } from 'node:stream';

/** What is stored about a blob besides its bytes. */
export interface BlobInfo {
  key: string;
  size: number;
  contentType: string;
  /** Hex SHA-256 of the bytes; empty when the storage did not see them pass (an S3 object a client PUT itself): `digest` reads them. */
  sha256: string;
  createdAt: Date;
}

/**
 * A request a client makes straight to storage, so the bytes never pass through the API process: a
 * URL signed for one object, one method (and, for uploads, one exact size) until `expiresAt`.
 */
export interface SignedRequest {
  /** Absolute (S3), or a path the platform serves itself (`/df/api/files/blobs/...`), to resolve against the API's origin. */
  url: string;
  method: 'GET' | 'PUT';
  /** Headers the request must carry as given (the signature covers them). */
  headers: Record<string, string>;
  expiresAt: Date;
}

/** One uploaded part of a multipart upload, as the client reports it back. */
export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/**
 * The blob-storage port: uploads, artifacts, recordings, profile images. Keys are `/`-separated
 * paths of `[A-Za-z0-9._-]` segments (no `..`), chosen by the caller, e.g. `company-1/users/7/image`.
 */
export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /** Stores the bytes under `key`, replacing what was there; resolves once durable. */
  put(key: string, data: Buffer | Readable, options: { contentType: string; maxBytes?: number }): Promise<BlobInfo>;
  /**
   * The bytes and info, or null when absent. With `range` (byte offsets, both inclusive, within the
   * blob), the stream carries only those bytes; `info.size` stays the whole blob's.
   */
  get(key: string, options?: { range?: { start: number; end: number } }): Promise<{ info: BlobInfo; stream: Readable } | null>;
  stat(key: string): Promise<BlobInfo | null>;
  /** Size and SHA-256 of the stored bytes, reading them when the storage does not know the hash; null when absent. */
  digest(key: string): Promise<{ size: number; sha256: string } | null>;
  /** Deletes; returns whether it existed. */
  delete(key: string): Promise<boolean>;
  /** Deletes every blob whose key starts with `prefix/` (a folder of keys); resolves once they are gone. */
  deleteFolder(prefix: string): Promise<void>;
  /** Total bytes under a key prefix (storage used). */
  usage(prefix: string): Promise<number>;

  /** A signed PUT that stores exactly `size` bytes under `key` (and nothing else, nowhere else). */
  presignPut(key: string, options: { contentType: string; size: number; expiresInMs: number }): Promise<SignedRequest>;
  /**
   * A signed GET of `key`, offered for download as `fileName`. With `expect`, a store that serves its
   * own URLs (the file system) checks with `verify` when the URL is used, and refuses bytes that are not
   * those (409 `FILE_INTEGRITY_FAILED`); S3 serves its URLs itself, so the caller verifies before signing.
   */
  presignGet(key: string, options: { expiresInMs: number; fileName?: string; expect?: { size: number; sha256: string } }): Promise<SignedRequest>;
  /** Starts a multipart upload to `key`; answers its upload id. */
  startMultipart(key: string, options: { contentType: string }): Promise<string>;
  /** A signed PUT of one part (1-based `partNumber`) of exactly `size` bytes; its answer carries the part's `ETag`. */
  presignPart(key: string, uploadId: string, partNumber: number, options: { size: number; expiresInMs: number }): Promise<SignedRequest>;
  /** Joins the parts, in order, into the object `key`; a missing part or a wrong ETag is `InvalidPartError` and changes nothing. */
  completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<void>;
  /** Discards a multipart upload and every part sent so far; an unknown or finished upload is a no-op. */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /**
   * Moves the bytes at `from` (a key that signed upload URLs name) to `to` (a key no signed URL names),
   * removing `from`, and answers the size and SHA-256 of the bytes now at `to`, computed from them (not
   * from what a client or an earlier write said); null when `from` holds nothing. A signed PUT replayed
   * later writes `from` again at most, never `to`.
   */
  promote(from: string, to: string): Promise<{ size: number; sha256: string } | null>;
  /**
   * Whether the bytes at `key` are still the ones recorded (`expected`): `altered` when they were changed
   * behind the store's back. Cheap when nothing changed (the file system compares the file's identity
   * and change time with what it noted when it wrote it, S3 the digest kept with the object); the
   * bytes are read again only when that cannot tell.
   */
  verify(key: string, expected: { size: number; sha256: string }): Promise<'intact' | 'missing' | 'altered'>;
  /** Upload ids of multipart uploads begun under `prefix` and neither completed nor aborted (leftovers to clean). */
  openMultipartUploads(prefix: string): Promise<{ key: string; uploadId: string }[]>;
}

/** A key that could escape the storage root or is otherwise not a key. */
export class InvalidBlobKeyError extends Error {
  constructor(readonly key: string) {
    super(`Invalid blob key "${key}"`);
    this.name = 'InvalidBlobKeyError';
  }
}

/** The upload was larger than allowed; nothing was stored. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Blob larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** Completing a multipart upload named a part that was not uploaded, or with another ETag; nothing was joined. */
export class InvalidPartError extends Error {
  constructor(
    readonly partNumber: number,
    message = `Part ${partNumber} was not uploaded or its ETag does not match`,
  ) {
    super(message);
    this.name = 'InvalidPartError';
  }
}

/** The multipart upload does not exist (never started, completed or aborted). */
export class NoSuchUploadError extends Error {
  constructor(readonly uploadId: string) {
    super(`No multipart upload ${uploadId}`);
    this.name = 'NoSuchUploadError';
  }
}

const SEGMENT = /^[A-Za-z0-9._-]{1,128}$/;

/** Throws unless `key` is a safe relative path. */
export function assertBlobKey(key: string): void {
  const parts = key.split('/');
  if (key.length > 1024 || parts.some((p) => !SEGMENT.test(p) || p === '.' || p === '..')) throw new InvalidBlobKeyError(key);
}

/** ETags compared as S3 clients hand them back: with or without their quotes. */
export const sameEtag = (a: string, b: string) => a.replace(/^"|"$/g, '') === b.replace(/^"|"$/g, '');
