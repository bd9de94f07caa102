// What an upload may be and where its bytes go: part sizes, the service's limits, the storage keys.
import type { FileScope } from '#projections/df-files/index.js';

/** The smallest part S3 takes (all but the last), and the default. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
export const MAX_PART_BYTES = 512 * 1024 * 1024;
export const MAX_PARTS = 10_000;

export interface FileCaller extends FileScope {
  userId: number;
}

export interface FileLimits {
  /** Largest file accepted (413 above). */
  maxBytes: number;
  /** How long an upload or part URL may be used. */
  uploadUrlTtlMs: number;
  /** How long a download URL may be used. */
  downloadUrlTtlMs: number;
  /** An upload not confirmed within this time is aborted and its bytes deleted. */
  uploadExpiryMs: number;
  /** Pause between files of a catalog backfill (spares the storage on a busy installation). */
  backfillThrottleMs: number;
}

/** The storage key of a file's bytes: inside its company's folder, never named after anything the client chose. */
export const fileBlobKey = (companyId: number, fileId: string) => `df/company-${companyId}/files/${fileId}`;
/** Where a file's signed upload URLs put its bytes until confirmation moves them to `fileBlobKey`. */
export const uploadBlobKey = (companyId: number, fileId: string) => `df/company-${companyId}/uploads/${fileId}`;
