// Reading an app build out of storage and filing it in the catalog: the build's metadata, the ids of
// its app and version, and the command that adds the version.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileRecord } from '#projections/df-files/index.js';
import { readAppArchive, ZIP_MAGIC, type AppMetadata } from '#shared/apps/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import { AppError } from '#shared/errors.js';
import type { AppCommand } from './decide.js';

/** Deterministic UUID-shaped id from its parts: one app per workspace, platform and identifier; one version per app and bytes. */
export function derivedId(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const iconBlobKey = (companyId: number, appId: string, versionId: string) => `df/company-${companyId}/apps/${appId}/icon-${versionId}`;

/**
 * Reads an app build from storage: copied to a temporary file, whose zip directory is read in place.
 * The copy is hashed on the way: bytes that are not the recorded ones (`sha256`) are not read as the
 * file's (`altered()`, 409 `FILE_INTEGRITY_FAILED`, logged).
 */
export async function readAppBuild(blobs: BlobStore, file: FileRecord, sha256: string, altered: () => AppError): Promise<AppMetadata | null> {
  const blob = await blobs.get(file.blobKey);
  if (!blob) throw new AppError('UPLOAD_INCOMPLETE', 'The bytes are gone');
  const dir = await mkdtemp(join(tmpdir(), 'qa-app-'));
  try {
    const path = join(dir, 'build');
    const hash = createHash('sha256');
    await pipeline(
      blob.stream,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(path, { mode: 0o600 }),
    );
    if (hash.digest('hex') !== sha256) throw altered();
    return await readAppArchive(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether the stored bytes begin as a zip archive does (an APK and an IPA are zips). */
export async function startsLikeZip(blobs: BlobStore, blobKey: string): Promise<boolean> {
  const blob = await blobs.get(blobKey);
  if (!blob) return false;
  try {
    for await (const chunk of blob.stream) {
      return (chunk as Buffer).subarray(0, 4).equals(ZIP_MAGIC);
    }
    return false;
  } finally {
    blob.stream.destroy();
  }
}

/** The command that files a confirmed build (`file`, read as `meta`) as version `versionId` of app `appId`. */
export function addAppVersion(file: FileRecord, meta: AppMetadata, ids: { appId: string; versionId: string; iconKey: string | null; sha256: string }): AppCommand {
  return {
    type: 'AddAppVersion',
    appId: ids.appId,
    companyId: file.companyId,
    workspaceId: file.workspaceId,
    platform: meta.platform,
    identifier: meta.identifier,
    name: meta.name,
    iconKey: ids.iconKey,
    versionId: ids.versionId,
    versionName: meta.versionName,
    versionCode: meta.versionCode,
    minOs: meta.minOs,
    targetOs: meta.targetOs,
    abis: meta.abis,
    permissions: meta.permissions,
    fileId: file.id,
    size: file.size,
    sha256: ids.sha256,
  };
}
