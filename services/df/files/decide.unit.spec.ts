import { describe, it } from 'vitest';
import type { AppEvent, FileEvent } from '#events/df/files.js';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { appDecider, fileDecider } from './decide.js';

const files = deciderSpec(fileDecider);
const apps = deciderSpec(appDecider);
const SHA = 'a'.repeat(64);
const started: Extract<FileEvent, { type: 'FileUploadStarted' }>['payload'] = {
  fileId: 'f-1',
  companyId: 1,
  workspaceId: 2,
  name: 'app.apk',
  size: 10,
  contentType: 'application/vnd.android.package-archive',
  sha256: null,
  blobKey: 'df/company-1/files/f-1',
  uploadId: null,
  partSize: null,
  partCount: null,
  expiresAt: '2026-01-01T00:00:00.000Z',
  uploadedBy: 7,
};
const upload: FileEvent = { type: 'FileUploadStarted', payload: started };
const confirmed: FileEvent = { type: 'FileConfirmed', payload: { fileId: 'f-1', size: 10, sha256: SHA, kind: 'app' } };

describe('file decider', () => {
  it('starts an upload once', () => {
    files.given([]).when({ type: 'StartUpload', ...started }).then([upload]);
    files.given([upload]).when({ type: 'StartUpload', ...started }).thenRefused('ALREADY_EXISTS');
  });

  it('confirms a pending upload once; a repeated confirm changes nothing', () => {
    files.given([upload]).when({ type: 'ConfirmFile', fileId: 'f-1', size: 10, sha256: SHA, kind: 'app' }).then([confirmed]);
    files.given([upload, confirmed]).when({ type: 'ConfirmFile', fileId: 'f-1', size: 10, sha256: SHA, kind: 'app' }).then([]);
  });

  it('never confirms what was aborted or rejected, and never aborts what is ready', () => {
    const aborted: FileEvent = { type: 'FileUploadAborted', payload: { fileId: 'f-1', reason: 'aborted' } };
    files.given([upload, aborted]).when({ type: 'ConfirmFile', fileId: 'f-1', size: 10, sha256: SHA, kind: 'file' }).thenRefused('CONFLICT');
    files.given([upload, aborted]).when({ type: 'AbortUpload', fileId: 'f-1', reason: 'expired' }).then([]);
    const rejected: FileEvent = { type: 'FileRejected', payload: { fileId: 'f-1', code: 'CHECKSUM_MISMATCH', reason: 'x' } };
    files.given([upload, rejected]).when({ type: 'ConfirmFile', fileId: 'f-1', size: 10, sha256: SHA, kind: 'file' }).thenRefused('CONFLICT');
    files.given([upload, confirmed]).when({ type: 'AbortUpload', fileId: 'f-1', reason: 'aborted' }).thenRefused('CONFLICT');
  });

  it('catalogues only a ready file, once per version', () => {
    const catalogue = { type: 'CatalogueFile' as const, fileId: 'f-1', appId: 'app-1', versionId: 'v-1' };
    files.given([upload]).when(catalogue).thenRefused('FILE_NOT_READY');
    files.given([upload, confirmed]).when(catalogue).then([{ type: 'FileCatalogued', payload: { fileId: 'f-1', appId: 'app-1', versionId: 'v-1' } }]);
    files.given([upload, confirmed, { type: 'FileCatalogued', payload: { fileId: 'f-1', appId: 'app-1', versionId: 'v-1' } }]).when(catalogue).then([]);
  });

  it('deletes a file once; a deleted file is not found', () => {
    const deleted: FileEvent = { type: 'FileDeleted', payload: { fileId: 'f-1', reason: 'deleted' } };
    files.given([upload, confirmed]).when({ type: 'DeleteFile', fileId: 'f-1', reason: 'deleted' }).then([deleted]);
    files.given([upload, confirmed, deleted]).when({ type: 'DeleteFile', fileId: 'f-1', reason: 'deleted' }).then([]);
    files.given([upload, confirmed, deleted]).when({ type: 'ConfirmFile', fileId: 'f-1', size: 10, sha256: SHA, kind: 'file' }).thenRefused('NOT_FOUND');
    files.given([]).when({ type: 'DeleteFile', fileId: 'f-1', reason: 'deleted' }).thenRefused('NOT_FOUND');
  });
});

describe('app decider', () => {
  const version = (versionId: string, sha256: string, fileId = `file-${versionId}`): Extract<AppEvent, { type: 'AppVersionAdded' }>['payload'] => ({
    appId: 'app-1',
    companyId: 1,
    workspaceId: 2,
    platform: 'android',
    identifier: 'com.example',
    name: 'Example',
    iconKey: null,
    versionId,
    versionName: '1.0',
    versionCode: '1',
    minOs: '26',
    targetOs: '34',
    abis: [],
    permissions: [],
    fileId,
    size: 10,
    sha256,
  });
  const added = (v: ReturnType<typeof version>): AppEvent => ({ type: 'AppVersionAdded', payload: v });

  it('adds a version per distinct bytes: the same bytes twice are one version', () => {
    apps.given([]).when({ type: 'AddAppVersion', ...version('v-1', SHA) }).then([added(version('v-1', SHA))]);
    apps.given([added(version('v-1', SHA))]).when({ type: 'AddAppVersion', ...version('v-2', SHA, 'other-file') }).then([]);
    apps.given([added(version('v-1', SHA))]).when({ type: 'AddAppVersion', ...version('v-2', 'b'.repeat(64)) }).then([added(version('v-2', 'b'.repeat(64)))]);
  });

  it('deletes a live version with its file named, and an app with all its versions', () => {
    apps.given([added(version('v-1', SHA))]).when({ type: 'DeleteAppVersion', appId: 'app-1', versionId: 'v-1' }).then([{ type: 'AppVersionDeleted', payload: { appId: 'app-1', versionId: 'v-1', fileId: 'file-v-1' } }]);
    apps.given([added(version('v-1', SHA))]).when({ type: 'DeleteAppVersion', appId: 'app-1', versionId: 'v-9' }).thenRefused('NOT_FOUND');
    apps.given([added(version('v-1', SHA))]).when({ type: 'DeleteApp', appId: 'app-1' }).then([{ type: 'AppDeleted', payload: { appId: 'app-1', versionIds: ['v-1'] } }]);
    apps.given([added(version('v-1', SHA)), { type: 'AppDeleted', payload: { appId: 'app-1', versionIds: ['v-1'] } }]).when({ type: 'DeleteApp', appId: 'app-1' }).thenRefused('NOT_FOUND');
  });

  it('lists a deleted app again when a version is added, even the same bytes', () => {
    apps.given([added(version('v-1', SHA)), { type: 'AppDeleted', payload: { appId: 'app-1', versionIds: ['v-1'] } }]).when({ type: 'AddAppVersion', ...version('v-1', SHA) }).then([added(version('v-1', SHA))]);
  });
});
