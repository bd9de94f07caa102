import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { dfFilesProjection } from './projection.js';
import { expiredUploads, findApp, findFile, findVersion, listApps, listFiles, listVersions, storageUsed } from './queries.js';

const scope = { companyId: 1, workspaceId: 2 };
const SHA1 = '1'.repeat(64);
const SHA2 = '2'.repeat(64);
const started = (fileId: string, extra: Record<string, unknown> = {}) => ({
  type: 'FileUploadStarted',
  payload: { fileId, companyId: 1, workspaceId: 2, name: `${fileId}.apk`, size: 100, contentType: 'application/octet-stream', sha256: null, blobKey: `df/company-1/files/${fileId}`, uploadId: null, partSize: null, partCount: null, expiresAt: '2026-01-03T00:00:00.000Z', uploadedBy: 7, ...extra },
  streamId: `df-file-${fileId}`,
});
const version = (versionId: string, versionCode: string, sha256: string, fileId: string) => ({
  type: 'AppVersionAdded',
  payload: { appId: 'app-1', companyId: 1, workspaceId: 2, platform: 'android', identifier: 'com.example', name: 'Example', iconKey: null, versionId, versionName: `v${versionCode}`, versionCode, minOs: '26', targetOs: '34', abis: ['arm64-v8a'], permissions: ['android.permission.INTERNET'], fileId, size: 100, sha256 },
  streamId: 'df-app-app-1',
});
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfFilesProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-files read model', () => {
  it('given an upload started and confirmed, shows the file ready in its workspace only', async () => {
    await spec.given(started('f-1'));
    expect(await findFile(spec.db, scope, 'f-1')).toMatchObject({ status: 'pending', kind: 'file', sha256: null, createdAt: SPEC_TIME, uploadedBy: 7 });
    expect((await expiredUploads(spec.db, new Date('2026-01-04T00:00:00.000Z'))).map((f) => f.id)).toEqual(['f-1']);
    await spec.given({ type: 'FileConfirmed', payload: { fileId: 'f-1', size: 100, sha256: SHA1, kind: 'app' } });
    expect(await findFile(spec.db, scope, 'f-1')).toMatchObject({ status: 'ready', kind: 'app', sha256: SHA1 });
    expect(await expiredUploads(spec.db, new Date('2026-01-04T00:00:00.000Z'))).toEqual([]);
    expect(await findFile(spec.db, { companyId: 1, workspaceId: 3 }, 'f-1')).toBeNull();
    expect(await findFile(spec.db, { companyId: 9, workspaceId: 2 }, 'f-1')).toBeNull();
    expect(await storageUsed(spec.db, 1)).toBe(100);
  });

  it('given an aborted or deleted file, lists it no more', async () => {
    await spec.given(started('f-1'), started('f-2'), { type: 'FileUploadAborted', payload: { fileId: 'f-1', reason: 'aborted' } }, { type: 'FileDeleted', payload: { fileId: 'f-2', reason: 'deleted' } });
    expect((await listFiles(spec.db, scope, { page: 0, size: 20 })).totalElements).toBe(0);
    expect(await storageUsed(spec.db, 1)).toBe(0);
  });

  it('given versions of an app, lists them newest code first and the app with its latest version and count', async () => {
    await spec.given(version('v-2', '20', SHA2, 'f-2'), version('v-1', '10', SHA1, 'f-1'));
    expect(await findApp(spec.db, scope, 'app-1')).toMatchObject({ identifier: 'com.example', platform: 'android', latestVersionId: 'v-2', versionCount: 2 });
    expect((await listVersions(spec.db, 'app-1', { page: 0, size: 20 })).content.map((v) => v.id)).toEqual(['v-2', 'v-1']);
    expect(await findVersion(spec.db, scope, 'v-1')).toMatchObject({ versionName: 'v10', abis: ['arm64-v8a'], permissions: ['android.permission.INTERNET'], fileId: 'f-1' });
    await spec.given({ type: 'AppVersionDeleted', payload: { appId: 'app-1', versionId: 'v-2', fileId: 'f-2' } });
    expect(await findApp(spec.db, scope, 'app-1')).toMatchObject({ latestVersionId: 'v-1', versionCount: 1 });
    await spec.given({ type: 'AppDeleted', payload: { appId: 'app-1', versionIds: ['v-1'] } });
    expect(await findApp(spec.db, scope, 'app-1')).toBeNull();
    expect((await listApps(spec.db, scope, { page: 0, size: 20 })).totalElements).toBe(0);
    await spec.given(version('v-1', '10', SHA1, 'f-1'));
    expect(await findApp(spec.db, scope, 'app-1')).toMatchObject({ latestVersionId: 'v-1', versionCount: 1 });
  });

  it('applies a replayed batch without changing the rows', async () => {
    const recorded = await spec.given(started('f-1'), { type: 'FileConfirmed', payload: { fileId: 'f-1', size: 100, sha256: SHA1, kind: 'app' } }, version('v-1', '10', SHA1, 'f-1'), { type: 'FileCatalogued', payload: { fileId: 'f-1', appId: 'app-1', versionId: 'v-1' } });
    await spec.replay(recorded);
    expect(await findFile(spec.db, scope, 'f-1')).toMatchObject({ status: 'ready', appId: 'app-1', versionId: 'v-1' });
    expect(await findApp(spec.db, scope, 'app-1')).toMatchObject({ versionCount: 1 });
  });
});
