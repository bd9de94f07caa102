// The catalog backfill: the workspace's ready files that are not catalogued are read, and the app
// builds among them filed as versions (an operation, `catalog-backfill`).
import type { Logger } from 'pino';
import type { FileRecord } from '#projections/df-files/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import { AppError } from '#shared/errors.js';
import type { JobContext } from '../operations/index.js';
import { startsLikeZip } from './app-builds.js';

export interface BackfillSteps {
  /** The files to examine, in order. */
  candidates(): Promise<FileRecord[]>;
  blobs: BlobStore;
  logger: Logger;
  /** Pause between files. */
  throttleMs: number;
  /** Reads a zip and files it when it is an app build: its app and version, or null when it is none. */
  file(file: FileRecord): Promise<{ appId: string; versionId: string } | null>;
}

/** Runs the backfill as `job`; answers what it examined and the versions it filed. */
export async function runBackfill(job: JobContext, steps: BackfillSteps): Promise<Record<string, unknown>> {
  const candidates = await steps.candidates();
  const versions: { fileId: string; appId: string; versionId: string }[] = [];
  let examined = 0;
  for (const file of candidates) {
    if (job.signal.aborted) throw new AppError('SERVICE_UNAVAILABLE', 'The process stopped');
    examined += 1;
    if (await startsLikeZip(steps.blobs, file.blobKey)) {
      try {
        const filed = await steps.file(file);
        if (filed) versions.push({ fileId: file.id, ...filed });
      } catch (err) {
        steps.logger.info({ fileId: file.id, err: (err as Error).message }, 'backfill: not an app build');
      }
    }
    job.progress((examined / candidates.length) * 100);
    if (steps.throttleMs > 0) await new Promise((r) => setTimeout(r, steps.throttleMs));
  }
  return { examined, catalogued: versions.length, versions };
}
