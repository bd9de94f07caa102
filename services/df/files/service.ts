import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { appStream, fileStream } from '#events/df/files.js';
import {
  expiredUploads,
  filesOfVersion,
  findApp,
  findFile,
  findVersion,
  listVersions,
  uncataloguedFiles,
  uploadStatus,
  type AppVersionView,
  type FileRecord,
  type FileScope,
} from '#projections/df-files/index.js';
import { appKindOfName, NotAZipError, type AppMetadata } from '#shared/apps/index.js';
import { InvalidPartError, NoSuchUploadError, type BlobStore, type SignedRequest } from '#shared/blob/index.js';
import type { Database } from '#shared/db/index.js';
import { commandContext, handleCommand, type CommandActor } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { inChildSpan, SpanKind, UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { ReadModelWaiter } from '../../platform.js';
import { PeriodicJob } from '../core/periodic.js';
import type { OperationService } from '../operations/index.js';
import { addAppVersion, derivedId, iconBlobKey, readAppBuild } from './app-builds.js';
import { runBackfill } from './backfill.js';
import { appDecider, fileDecider, type AppCommand, type FileCommand } from './decide.js';
import { DEFAULT_PART_BYTES, fileBlobKey, MAX_PARTS, uploadBlobKey, type FileCaller, type FileLimits } from './limits.js';

const READ_MODELS = ['df-files'];
const APP_CONTENT_TYPES = new Set(['application/vnd.android.package-archive', 'application/octet-stream+ipa', 'application/x-ios-app']);

/**
 * Files and the app catalog (docs/modules/files.md). Clients send bytes straight to
 * storage through signed URLs (single PUT, or multipart with a URL per part), then confirm: the
 * service checks the size and checksum from storage, refuses an `.apk`/`.ipa` that is no app build,
 * and files an app build as a version of its app. Unconfirmed uploads are cleaned up.
 */
export class FileService {
  private readonly sweeper = new PeriodicJob(
    'expired-uploads',
    (tick) => this.sweep(tick).then(() => undefined),
    (err) => this.deps.logger.warn({ err }, 'sweeping expired uploads failed'),
  );

  constructor(
    private readonly deps: {
      store: EventStore;
      db: Database;
      blobs: BlobStore;
      logger: Logger;
      readonly readModels: ReadModelWaiter;
      operations: OperationService;
      now: () => Date;
      limits: FileLimits;
      /** The company's storage limit: refuses an upload that would go over it (403 QUOTA_EXCEEDED) before anything is stored. */
      storage?: { admit(companyId: number, bytes: number): Promise<void> };
    },
  ) {}

  private actor(caller: Partial<FileCaller> & { actor?: string }): CommandActor {
    return { actorId: caller.actor ?? caller.userId ?? 'system', companyId: caller.companyId ?? null, workspaceId: caller.workspaceId ?? null };
  }

  private file(command: FileCommand, caller: Partial<FileCaller> & { actor?: string }) {
    return handleCommand({ store: this.deps.store, streamId: fileStream(command.fileId), decider: fileDecider, command, context: commandContext(this.deps, this.actor(caller)) });
  }

  private app(command: AppCommand, caller: Partial<FileCaller> & { actor?: string }) {
    return handleCommand({ store: this.deps.store, streamId: appStream(command.appId), decider: appDecider, command, context: commandContext(this.deps, this.actor(caller)) });
  }

  private async settle(position: bigint | null) {
    if (position !== null) await this.deps.readModels.waitFor(position, { names: READ_MODELS });
  }

  private checkSize(size: number) {
    if (size > this.deps.limits.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `Files are limited to ${this.deps.limits.maxBytes} bytes`, { details: [{ path: 'size', message: `at most ${this.deps.limits.maxBytes}` }] });
  }

  /** A file of the caller's workspace, or 404 (another company's or workspace's id included). */
  async get(scope: FileScope, fileId: string): Promise<FileRecord> {
    const file = await findFile(this.deps.db, scope, fileId);
    if (!file) throw new AppError('NOT_FOUND', 'File not found');
    return file;
  }

  /** Starts a single upload: the signed PUT the client sends the bytes with. */
  async presignUpload(caller: FileCaller, input: { name: string; size: number; contentType: string; sha256?: string | undefined }): Promise<{ fileId: string } & SignedRequest> {
    this.checkSize(input.size);
    await this.deps.storage?.admit(caller.companyId, input.size);
    const fileId = randomUUID();
    const blobKey = fileBlobKey(caller.companyId, fileId);
    const uploadKey = uploadBlobKey(caller.companyId, fileId);
    const request = await this.deps.blobs.presignPut(uploadKey, { contentType: input.contentType, size: input.size, expiresInMs: this.deps.limits.uploadUrlTtlMs });
    const expiresAt = new Date(this.deps.now().getTime() + this.deps.limits.uploadExpiryMs);
    const result = await this.file(
      { type: 'StartUpload', fileId, companyId: caller.companyId, workspaceId: caller.workspaceId, name: input.name, size: input.size, contentType: input.contentType, sha256: input.sha256 ?? null, blobKey, uploadKey, uploadId: null, partSize: null, partCount: null, expiresAt: expiresAt.toISOString(), uploadedBy: caller.userId },
      caller,
    );
    await this.settle(result.position);
    return { fileId, ...request };
  }

  /** Starts a multipart upload: the part size and count; each part's URL is asked for separately. */
  async initiateMultipart(caller: FileCaller, input: { name: string; size: number; contentType: string; partSize?: number | undefined; sha256?: string | undefined }): Promise<{ fileId: string; partSize: number; partCount: number; expiresAt: Date }> {
    this.checkSize(input.size);
    await this.deps.storage?.admit(caller.companyId, input.size);
    const partSize = input.partSize ?? Math.max(DEFAULT_PART_BYTES, Math.ceil(input.size / MAX_PARTS));
    const partCount = Math.max(1, Math.ceil(input.size / partSize));
    if (partCount > MAX_PARTS) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: 'partSize', message: `at least ${Math.ceil(input.size / MAX_PARTS)} for this size (${MAX_PARTS} parts at most)` }] });
    const fileId = randomUUID();
    const blobKey = fileBlobKey(caller.companyId, fileId);
    const uploadKey = uploadBlobKey(caller.companyId, fileId);
    const uploadId = await this.deps.blobs.startMultipart(uploadKey, { contentType: input.contentType });
    const expiresAt = new Date(this.deps.now().getTime() + this.deps.limits.uploadExpiryMs);
    const result = await this.file(
      { type: 'StartUpload', fileId, companyId: caller.companyId, workspaceId: caller.workspaceId, name: input.name, size: input.size, contentType: input.contentType, sha256: input.sha256 ?? null, blobKey, uploadKey, uploadId, partSize, partCount, expiresAt: expiresAt.toISOString(), uploadedBy: caller.userId },
      caller,
    );
    await this.settle(result.position);
    return { fileId, partSize, partCount, expiresAt };
  }

  private async pendingMultipart(scope: FileScope, fileId: string): Promise<FileRecord & { uploadId: string; partSize: number; partCount: number }> {
    const file = await this.get(scope, fileId);
    if (!file.uploadId || file.partSize === null || file.partCount === null) throw new AppError('NOT_FOUND', 'No multipart upload of this file');
    if (file.status !== 'pending') throw new AppError('CONFLICT', `The upload is already ${file.status === 'ready' ? 'complete' : file.status}`);
    return file as FileRecord & { uploadId: string; partSize: number; partCount: number };
  }

  /** The signed PUT of one part; asking again (a retry) gives a new URL for the same part. */
  async partUrl(scope: FileScope, fileId: string, partNumber: number): Promise<SignedRequest> {
    const file = await this.pendingMultipart(scope, fileId);
    if (partNumber < 1 || partNumber > file.partCount) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: 'partNumber', message: `1 to ${file.partCount}` }] });
    const size = partNumber < file.partCount ? file.partSize : file.size - file.partSize * (file.partCount - 1);
    return this.deps.blobs.presignPart(file.uploadKey, file.uploadId, partNumber, { size, expiresInMs: this.deps.limits.uploadUrlTtlMs });
  }

  /** Joins the parts (each named once, with the ETag its PUT answered) and confirms the file. */
  async completeMultipart(caller: FileCaller, fileId: string, parts: { partNumber: number; etag: string }[]): Promise<FileRecord> {
    const file = await this.pendingMultipart(caller, fileId);
    const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
    const missing = Array.from({ length: file.partCount }, (_, i) => i + 1).filter((n) => !sorted.some((p) => p.partNumber === n));
    if (missing.length > 0 || sorted.length !== file.partCount) {
      throw new AppError('INVALID_PART', `Every part from 1 to ${file.partCount} must be listed once${missing.length ? `; missing ${missing.slice(0, 10).join(', ')}` : ''}`);
    }
    try {
      await this.deps.blobs.completeMultipart(file.uploadKey, file.uploadId, sorted);
    } catch (err) {
      if (err instanceof InvalidPartError) throw new AppError('INVALID_PART', err.message, { cause: err });
      if (err instanceof NoSuchUploadError) {
        // Completed before by a request whose answer was lost: the object is there.
        if (!(await this.deps.blobs.stat(file.uploadKey)) && !(await this.deps.blobs.stat(file.blobKey))) throw new AppError('CONFLICT', 'The multipart upload is no longer open', { cause: err });
      } else throw err;
    }
    return this.confirm(caller, fileId);
  }

  /** Discards a multipart upload: every part sent is deleted and the file is gone. */
  async abortMultipart(caller: FileCaller, fileId: string): Promise<void> {
    const file = await this.pendingMultipart(caller, fileId);
    await this.deleteBytes(file);
    await this.settle((await this.file({ type: 'AbortUpload', fileId, reason: 'aborted' }, caller)).position);
  }

  /**
   * Checks an upload against what was announced and makes the file `ready`: the stored size must be
   * the announced one, the SHA-256 the declared one (when declared); a file named `.apk` or `.ipa` must
   * be an app build, and is catalogued. Bytes that fail are deleted and the file is `failed`.
   *
   * The bytes are first moved from the key the signed URLs name to the file's own key, which no URL
   * names, and everything is checked on what arrived there: a signed URL used again after this (S3's
   * cannot be revoked) writes the upload key at most, which nothing reads, so a confirmed file never
   * changes.
   */
  async confirm(caller: FileCaller, fileId: string): Promise<FileRecord> {
    const file = await this.get(caller, fileId);
    if (file.status === 'ready') return file;
    if (file.status === 'failed') throw new AppError('CONFLICT', `The upload failed (${file.failure ?? 'refused'}); start a new one`);
    // Nothing at the upload key: an upload from before the keys were apart (its bytes at `blobKey`), or
    // a confirmation that moved the bytes and stopped before recording it.
    const moved = file.uploadKey === file.blobKey ? null : await this.deps.blobs.promote(file.uploadKey, file.blobKey);
    const digest = moved ?? (await this.deps.blobs.digest(file.blobKey));
    if (!digest) throw new AppError('UPLOAD_INCOMPLETE', file.uploadId ? 'Complete the multipart upload first' : 'The bytes have not arrived: PUT them to the upload URL first');
    if (digest.size !== file.size) return this.reject(caller, file, new AppError('SIZE_MISMATCH', `${digest.size} bytes arrived, ${file.size} were announced`));
    if (file.declaredSha256 && digest.sha256 !== file.declaredSha256) return this.reject(caller, file, new AppError('CHECKSUM_MISMATCH', `The bytes' SHA-256 is ${digest.sha256}, not the declared ${file.declaredSha256}`));
    const claimsApp = appKindOfName(file.name) !== null || APP_CONTENT_TYPES.has(file.contentType);
    let meta: AppMetadata | null = null;
    if (claimsApp) {
      try {
        // A span of the upload's trace when tracing is on: reading the manifest and icon of the build.
        meta = await inChildSpan('app build read', { 'df.file.id': file.id }, () => readAppBuild(this.deps.blobs, file, digest.sha256, () => this.altered(file)), SpanKind.INTERNAL);
      } catch (err) {
        if (err instanceof AppError && err.code === 'FILE_INTEGRITY_FAILED') throw err;
        return this.reject(caller, file, new AppError('UNSUPPORTED_MEDIA_TYPE', err instanceof NotAZipError ? `${file.name} is not an app build: not a zip archive` : `${file.name} is not a readable app build: ${(err as Error).message}`));
      }
      if (!meta) return this.reject(caller, file, new AppError('UNSUPPORTED_MEDIA_TYPE', `${file.name} is a zip archive but neither an APK nor an IPA`));
      const expected = appKindOfName(file.name);
      if (expected && expected !== meta.platform) return this.reject(caller, file, new AppError('UNSUPPORTED_MEDIA_TYPE', `${file.name} is an ${meta.platform === 'android' ? 'APK' : 'IPA'}, not what its name says`));
    }
    const confirmed = await this.file({ type: 'ConfirmFile', fileId, size: digest.size, sha256: digest.sha256, kind: meta ? 'app' : 'file' }, caller);
    await this.settle(confirmed.position);
    if (meta) await this.catalogue(caller, { ...file, sha256: digest.sha256 }, meta);
    return this.get(caller, fileId);
  }

  private async reject(caller: FileCaller, file: FileRecord, error: AppError): Promise<never> {
    await this.deleteBytes(file);
    await this.settle((await this.file({ type: 'RejectFile', fileId: file.id, code: error.code, reason: error.message }, caller)).position);
    throw error;
  }

  /** Files a confirmed app build as a version of its app (the same bytes already there: that version). */
  private async catalogue(caller: Partial<FileCaller> & { actor?: string }, file: FileRecord & { sha256: string | null }, meta: AppMetadata): Promise<{ appId: string; versionId: string }> {
    const appId = derivedId('df-app', file.companyId, file.workspaceId, meta.platform, meta.identifier);
    const sha256 = file.sha256!;
    let versionId = derivedId(appId, sha256);
    let iconKey: string | null = null;
    if (meta.icon) {
      iconKey = iconBlobKey(file.companyId, appId, versionId);
      await this.deps.blobs.put(iconKey, meta.icon.bytes, { contentType: meta.icon.contentType });
    }
    const added = await this.app(addAppVersion(file, meta, { appId, versionId, iconKey, sha256 }), caller);
    if (added.events.length === 0) {
      // These bytes are a version already: this file joins it.
      versionId = [...added.state.versions.entries()].find(([, v]) => v.sha256 === sha256)?.[0] ?? versionId;
      if (iconKey) await this.deps.blobs.delete(iconKey);
    }
    await this.settle(added.position);
    await this.settle((await this.file({ type: 'CatalogueFile', fileId: file.id, appId, versionId }, caller)).position);
    return { appId, versionId };
  }

  /** Logs bytes found changed behind the platform's back and answers the refusal. */
  altered(file: Pick<FileRecord, 'id' | 'companyId' | 'blobKey'>): AppError {
    this.deps.logger.error({ fileId: file.id, companyId: file.companyId, blobKey: file.blobKey }, 'stored bytes of a confirmed file differ from its record; not served');
    return new AppError('FILE_INTEGRITY_FAILED', 'The stored bytes of this file are not the ones confirmed: they were changed outside the platform and are not served');
  }

  /**
   * A signed GET of a ready file, offered under its name, once the stored bytes are checked against the
   * record (`BlobStore.verify`); the file system checks again when the URL is used.
   */
  async downloadUrl(scope: FileScope, fileId: string): Promise<SignedRequest> {
    const file = await this.get(scope, fileId);
    if (file.status !== 'ready' || !file.sha256) throw new AppError('FILE_NOT_READY', `The file is ${file.status}`);
    const expect = { size: file.size, sha256: file.sha256 };
    const state = await this.deps.blobs.verify(file.blobKey, expect);
    if (state === 'missing') throw new AppError('NOT_FOUND', 'The file’s bytes are gone');
    if (state === 'altered') throw this.altered(file);
    return this.deps.blobs.presignGet(file.blobKey, { expiresInMs: this.deps.limits.downloadUrlTtlMs, fileName: file.name, expect });
  }

  /**
   * Whether a signed upload URL naming `uploadKey` may still write: only while its file is pending. A
   * confirmed file's URL is 409 `UPLOAD_COMPLETED`, a failed one's 409 `UPLOAD_CLOSED`, a file gone 404.
   */
  async admitUploadWrite(uploadKey: string): Promise<void> {
    const status = await uploadStatus(this.deps.db, uploadKey);
    if (status === 'pending') return;
    if (status === 'ready') throw new AppError('UPLOAD_COMPLETED', 'This upload was confirmed and its file can no longer change: start a new upload for other bytes');
    if (status === 'failed') throw new AppError('UPLOAD_CLOSED', 'This upload failed: start a new one');
    throw new AppError('NOT_FOUND', 'The upload is not open (aborted, deleted or unknown)');
  }

  /** A short-lived URL of an app's icon, or null. */
  async iconUrl(iconKey: string | null): Promise<string | null> {
    if (!iconKey) return null;
    return (await this.deps.blobs.presignGet(iconKey, { expiresInMs: this.deps.limits.downloadUrlTtlMs })).url;
  }

  /** Deletes a file and its bytes (a pending multipart upload is aborted); the version it backs goes with it. */
  async delete(caller: FileCaller, fileId: string): Promise<void> {
    const file = await this.get(caller, fileId);
    if (file.appId && file.versionId) {
      const version = await findVersion(this.deps.db, caller, file.versionId);
      if (version && version.fileId === file.id) {
        await this.deleteVersion(caller, file.appId, file.versionId);
        return;
      }
    }
    await this.removeFile(caller, file);
  }

  /** Deletes every byte of a file: an open multipart upload, what the upload key holds (a replayed URL's leftovers included) and the file's own bytes. */
  private async deleteBytes(file: FileRecord): Promise<void> {
    if (file.status === 'pending' && file.uploadId) await this.deps.blobs.abortMultipart(file.uploadKey, file.uploadId);
    if (file.uploadKey !== file.blobKey) await this.deps.blobs.delete(file.uploadKey);
    await this.deps.blobs.delete(file.blobKey);
  }

  private async removeFile(caller: Partial<FileCaller> & { actor?: string }, file: FileRecord, reason = 'deleted'): Promise<void> {
    await this.deleteBytes(file);
    await this.settle((await this.file({ type: 'DeleteFile', fileId: file.id, reason }, caller)).position);
  }

  private async refuseWhileInstalling(versionId: string): Promise<void> {
    const running = await this.deps.operations.running('app-install', 'versionId', versionId);
    if (running.length > 0) throw new AppError('APP_VERSION_IN_USE', `An install of this version is running (operation ${running[0]!.id}); try again when it ends`);
  }

  /** Deletes one version and the files that hold its bytes; refused while an install of it runs. */
  async deleteVersion(caller: FileCaller, appId: string, versionId: string): Promise<void> {
    const app = await findApp(this.deps.db, caller, appId);
    const version = await findVersion(this.deps.db, caller, versionId);
    if (!app || !version || version.appId !== appId) throw new AppError('NOT_FOUND', 'App version not found');
    await this.refuseWhileInstalling(versionId);
    await this.settle((await this.app({ type: 'DeleteAppVersion', appId, versionId }, caller)).position);
    await this.removeVersionFiles(caller, version);
  }

  /** Deletes an app, every version and their files; refused while an install of any of them runs. */
  async deleteApp(caller: FileCaller, appId: string): Promise<void> {
    const app = await findApp(this.deps.db, caller, appId);
    if (!app) throw new AppError('NOT_FOUND', 'App not found');
    const versions = await this.versionsOf(appId);
    for (const v of versions) await this.refuseWhileInstalling(v.id);
    await this.settle((await this.app({ type: 'DeleteApp', appId }, caller)).position);
    for (const v of versions) await this.removeVersionFiles(caller, v);
    if (app.iconKey) await this.deps.blobs.deleteFolder(`df/company-${caller.companyId}/apps/${appId}`);
  }

  private async versionsOf(appId: string): Promise<AppVersionView[]> {
    return (await listVersions(this.deps.db, appId, { page: 0, size: 10_000 })).content;
  }

  private async removeVersionFiles(caller: FileCaller, version: AppVersionView): Promise<void> {
    for (const { id } of await filesOfVersion(this.deps.db, caller, version.id)) {
      const file = await findFile(this.deps.db, caller, id);
      if (file) await this.removeFile(caller, file, 'app version deleted');
    }
  }

  /**
   * Starts the catalog backfill: every ready file of the workspace that is not catalogued and is a
   * zip is read, and the APKs and IPAs among them are filed as versions. Answers the operation id.
   */
  backfill(caller: FileCaller): Promise<string> {
    return this.deps.operations.start('catalog-backfill', caller, { workspaceId: caller.workspaceId }, (job) =>
      runBackfill(job, {
        candidates: () => uncataloguedFiles(this.deps.db, caller),
        blobs: this.deps.blobs,
        logger: this.deps.logger,
        throttleMs: this.deps.limits.backfillThrottleMs,
        file: async (file) => {
          const meta = await readAppBuild(this.deps.blobs, file, file.sha256!, () => this.altered(file));
          return meta ? this.catalogue({ ...caller }, file, meta) : null;
        },
      }),
    );
  }

  /** Aborts uploads never confirmed in time (their parts and bytes deleted). */
  async sweep(tick: Tick = UNTRACED): Promise<number> {
    let swept = 0;
    for (const file of await expiredUploads(this.deps.db, this.deps.now())) {
      await tick.work(async () => {
        try {
          await this.deleteBytes(file);
          await this.file({ type: 'AbortUpload', fileId: file.id, reason: 'expired' }, { actor: 'system', companyId: file.companyId, workspaceId: file.workspaceId });
          swept += 1;
          tick.count('uploads.aborted');
        } catch (err) {
          this.deps.logger.warn({ err, fileId: file.id }, 'cleaning up an expired upload failed');
        }
      });
    }
    return swept;
  }

  start(intervalMs = 60_000): void {
    this.sweeper.start(intervalMs);
  }

  /** No sweep after this; resolves once the sweep under way, if any, has ended. */
  stop(): Promise<void> {
    return this.sweeper.stop();
  }
}
