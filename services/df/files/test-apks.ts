import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { findApp, findFile, findVersion, type FileScope } from '#projections/df-files/index.js';
import { NotAZipError } from '#shared/apps/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import type { Database } from '#shared/db/index.js';
import { DexError, NotATestApkError, readTestApkFile, type TestApkListing } from '#shared/dex/index.js';
import { AppError } from '#shared/errors.js';

/** How many versions' listings one process keeps. */
const MAX_CACHED = 200;

/**
 * The tests of a catalogued app version (`GET /df/api/files/app-versions/{id}/tests`): the version's
 * stored build, checked against the version's size and SHA-256, is copied to a temporary file whose DEX
 * files `shared/dex` reads. Versions never change, so each version's answer, a listing or "not a
 * test APK", is kept (the most recent `MAX_CACHED`); an answer that may change (bytes gone or altered)
 * is not.
 */
export class TestApkListings {
  private readonly cache = new Map<string, Promise<TestApkListing>>();

  constructor(private readonly deps: { db: Database; blobs: BlobStore; logger: Logger }) {}

  /** The listing of a version of the caller's workspace; 404 for a version it cannot see. */
  async of(scope: FileScope, versionId: string): Promise<TestApkListing> {
    const version = await findVersion(this.deps.db, scope, versionId);
    if (!version) throw new AppError('NOT_FOUND', 'App version not found');
    const held = this.cache.get(version.id);
    if (held) {
      // Most recently used last, so the oldest is the first to go.
      this.cache.delete(version.id);
      this.cache.set(version.id, held);
      return held;
    }
    const app = await findApp(this.deps.db, scope, version.appId);
    const reading = app?.platform === 'ios' ? Promise.reject(new AppError('NOT_A_TEST_APK', 'An iOS build is not an Android test APK')) : this.read(scope, version.fileId, version.sha256, version.size);
    this.cache.set(version.id, reading);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    reading.catch((err: unknown) => {
      if (!(err instanceof AppError && (err.code === 'NOT_A_TEST_APK' || err.code === 'DEX_UNREADABLE'))) this.cache.delete(version.id);
    });
    return reading;
  }

  private async read(scope: FileScope, fileId: string, sha256: string, size: number): Promise<TestApkListing> {
    const file = await findFile(this.deps.db, scope, fileId);
    if (!file) throw new AppError('NOT_FOUND', 'The version’s file is gone');
    // Cheap when nothing changed: the store compares what it noted when it wrote the bytes.
    const state = await this.deps.blobs.verify(file.blobKey, { size, sha256 });
    if (state === 'altered') {
      this.deps.logger.error({ fileId: file.id, companyId: file.companyId, blobKey: file.blobKey }, 'stored bytes of a catalogued version differ from its record; not read');
      throw new AppError('FILE_INTEGRITY_FAILED', 'The stored bytes of this version are not the ones catalogued: they were changed outside the platform and are not read');
    }
    const blob = state === 'intact' ? await this.deps.blobs.get(file.blobKey) : null;
    if (!blob) throw new AppError('NOT_FOUND', 'The version’s file is gone');
    const dir = await mkdtemp(join(tmpdir(), 'qa-test-apk-'));
    try {
      const path = join(dir, 'build.apk');
      await pipeline(blob.stream, createWriteStream(path, { mode: 0o600 }));
      return await readTestApkFile(path);
    } catch (err) {
      throw refusal(err);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** The catalogue's answer for what reading a build threw. */
function refusal(err: unknown): unknown {
  if (err instanceof NotATestApkError || err instanceof NotAZipError) return new AppError('NOT_A_TEST_APK', err.message, { cause: err });
  if (err instanceof DexError) return new AppError('DEX_UNREADABLE', `The APK's code cannot be read (${err.reason}): ${err.message}`, { cause: err });
  return err;
}
