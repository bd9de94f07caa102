import { Transform } from 'node:stream';
import { findDevice } from '#projections/df-devices/index.js';
import { findApp, findFile, findVersion, type FileScope } from '#projections/df-files/index.js';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import type { Database } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import type { OperationService } from '../operations/index.js';
import type { Caller } from '../http.js';
import type { SessionPort } from '../core/session-port.js';

/** Installing a big build takes longer than a tap. */
const INSTALL_TIMEOUT_MS = 300_000;

/**
 * Installs a catalogued version (or an uploaded app file) on a session's device as a long-running
 * operation (`app-install`): the bytes stream from storage to the device's agent in pieces (progress
 * up to 90%), the agent checks their SHA-256 and the device's package manager installs them.
 */
export class CatalogInstaller {
  constructor(private readonly deps: { db: Database; blobs: BlobStore; sessions: SessionPort; operations: OperationService }) {}

  /** Resolves what to install, refusing what cannot be installed, and starts the operation; answers its id. */
  async start(caller: Caller, session: SessionRecord, what: { versionId?: string | undefined; fileId?: string | undefined }): Promise<string> {
    const scope: FileScope = caller;
    const version = what.versionId ? await findVersion(this.deps.db, scope, what.versionId) : null;
    if (what.versionId && !version) throw new AppError('NOT_FOUND', 'App version not found');
    const fileId = version?.fileId ?? what.fileId!;
    const file = await findFile(this.deps.db, scope, fileId);
    if (!file) throw new AppError('NOT_FOUND', 'File not found');
    if (file.status !== 'ready') throw new AppError('FILE_NOT_READY', `The file is ${file.status}`);
    if (file.kind !== 'app' || !file.appId) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${file.name} is not a catalogued app build`);
    const app = await findApp(this.deps.db, scope, file.appId);
    // A build installs on its own platform only; a device no longer listed is left to its agent to refuse.
    const device = app ? await findDevice(this.deps.db, this.deps.sessions.deviceScope(caller), session.deviceId) : null;
    if (app && device && device.platform !== app.platform) {
      throw new AppError('DEVICE_UNSUPPORTED', `${app.platform === 'ios' ? 'iOS' : 'Android'} builds install on ${app.platform === 'ios' ? 'iOS' : 'Android'} devices; this device is ${device.platform}`);
    }
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    const versionId = version?.id ?? file.versionId ?? null;
    return this.deps.operations.start('app-install', caller, { sessionId: session.id, fileId: file.id, versionId, appId: file.appId }, async (job) => {
      if (file.sha256 && (await this.deps.blobs.verify(file.blobKey, { size: file.size, sha256: file.sha256 })) === 'altered') {
        throw new AppError('FILE_INTEGRITY_FAILED', 'The stored bytes of this file are not the ones confirmed: they were changed outside the platform and are not installed');
      }
      const blob = await this.deps.blobs.get(file.blobKey);
      if (!blob) throw new AppError('NOT_FOUND', 'The file’s bytes are gone');
      let sent = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          sent += chunk.length;
          job.progress((sent / Math.max(1, file.size)) * 90);
          done(null, chunk);
        },
      });
      const staged = await this.deps.sessions.stageUpload(session, blob.stream.pipe(meter), file.size);
      if (file.sha256 && staged.sha256 !== file.sha256) throw new AppError('CHECKSUM_MISMATCH', 'The bytes read from storage are not the file’s');
      const installed = await this.deps.sessions.deviceContent(session, { op: 'installApp', stageId: staged.stageId }, INSTALL_TIMEOUT_MS);
      await this.deps.sessions.recordActivity(session, caller, 'control', {
        action: 'installApp',
        fileName: file.name.slice(0, 255),
        size: staged.size,
        sha256: staged.sha256,
        packageNames: installed.packageNames,
        fileId: file.id,
        ...(versionId ? { versionId } : {}),
        via: 'api',
      });
      return { packageNames: installed.packageNames, size: staged.size, sha256: staged.sha256, fileId: file.id, versionId, appId: file.appId, sessionId: session.id };
    });
  }
}
