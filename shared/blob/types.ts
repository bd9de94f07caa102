import type { Readable } from 'node:stream';

/** What is stored about a blob besides its bytes. */
export interface BlobInfo {
  key: string;
  size: number;
  contentType: string;
  sha256: string;
  createdAt: Date;
}

/**
 * The blob-storage port: uploads, artifacts, recordings, profile images. Keys are `/`-separated
 * paths of `[A-Za-z0-9._-]` segments (no `..`), chosen by the caller, e.g. `company-1/users/7/image`.
 */
export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /** Stores the bytes under `key`, replacing what was there; resolves once durable. */
  put(key: string, data: Buffer | Readable, options: { contentType: string; maxBytes?: number }): Promise<BlobInfo>;
  /** The bytes and info, or null when absent. */
  get(key: string): Promise<{ info: BlobInfo; stream: Readable } | null>;
  stat(key: string): Promise<BlobInfo | null>;
  /** Deletes; returns whether it existed. */
  delete(key: string): Promise<boolean>;
  /** Deletes every blob whose key starts with `prefix/` (a folder of keys); resolves once they are gone. */
  deleteFolder(prefix: string): Promise<void>;
  /** Total bytes under a key prefix (storage used). */
  usage(prefix: string): Promise<number>;
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

const SEGMENT = /^[A-Za-z0-9._-]{1,128}$/;

/** Throws unless `key` is a safe relative path. */
export function assertBlobKey(key: string): void {
  const parts = key.split('/');
  if (key.length > 1024 || parts.some((p) => !SEGMENT.test(p) || p === '.' || p === '..')) throw new InvalidBlobKeyError(key);
}
