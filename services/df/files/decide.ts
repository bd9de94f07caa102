import type { AppEvent, FileEvent } from '#events/df/files.js';
import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';

type Started = Extract<FileEvent, { type: 'FileUploadStarted' }>['payload'];

export type FileStatus = 'none' | 'pending' | 'ready' | 'failed' | 'aborted' | 'deleted';

export interface FileState {
  file: Started | null;
  status: FileStatus;
  sha256: string | null;
  size: number | null;
  kind: 'app' | 'file' | null;
  appId: string | null;
  versionId: string | null;
}

export type FileCommand =
  | ({ type: 'StartUpload' } & Started)
  | { type: 'AbortUpload'; fileId: string; reason: 'aborted' | 'expired' }
  | { type: 'ConfirmFile'; fileId: string; size: number; sha256: string; kind: 'app' | 'file' }
  | { type: 'RejectFile'; fileId: string; code: string; reason: string }
  | { type: 'CatalogueFile'; fileId: string; appId: string; versionId: string }
  | { type: 'DeleteFile'; fileId: string; reason: string };

const existing = (state: FileState): Started => {
  if (!state.file || state.status === 'deleted') throw new AppError('NOT_FOUND', 'File not found');
  return state.file;
};

/**
 * Whether a command ending a pending upload as `end` has anything to record: not when the upload
 * already ended that way; 409 `CONFLICT` (`conflict`) when it ended another way.
 */
const endsPending = (state: FileState, end: FileStatus, conflict: (status: FileStatus) => string): boolean => {
  existing(state);
  if (state.status === end) return false;
  if (state.status !== 'pending') throw new AppError('CONFLICT', conflict(state.status));
  return true;
};
const was = (status: FileStatus) => `The upload was ${status}`;

/**
 * One uploaded file: started once; a pending upload is confirmed, rejected or aborted exactly once
 * (repeating the same end changes nothing); a ready file may be catalogued; any file may be deleted.
 */
export const fileDecider = defineDecider<FileCommand, FileEvent, FileState>({
  initialState: () => ({ file: null, status: 'none', sha256: null, size: null, kind: null, appId: null, versionId: null }),
  evolve: {
    FileUploadStarted: (s, e) => ({ ...s, file: e.payload, status: 'pending' }),
    FileUploadAborted: (s) => ({ ...s, status: 'aborted' }),
    FileConfirmed: (s, e) => ({ ...s, status: 'ready', sha256: e.payload.sha256, size: e.payload.size, kind: e.payload.kind }),
    FileRejected: (s) => ({ ...s, status: 'failed' }),
    FileCatalogued: (s, e) => ({ ...s, kind: 'app', appId: e.payload.appId, versionId: e.payload.versionId }),
    FileDeleted: (s) => ({ ...s, status: 'deleted' }),
  },
  decide: {
    StartUpload: (command, state) => [firstEvent(state.file, 'File', 'FileUploadStarted', command)],
    AbortUpload: (command, state) =>
      endsPending(state, 'aborted', (status) => `The upload is already ${status === 'ready' ? 'complete' : status}`)
        ? [{ type: 'FileUploadAborted', payload: { fileId: command.fileId, reason: command.reason } }]
        : [],
    ConfirmFile: ({ type: _type, ...payload }, state) => (endsPending(state, 'ready', was) ? [{ type: 'FileConfirmed', payload }] : []),
    RejectFile: ({ type: _type, ...payload }, state) => (endsPending(state, 'failed', was) ? [{ type: 'FileRejected', payload }] : []),
    CatalogueFile: (command, state) => {
      existing(state);
      if (state.status !== 'ready') throw new AppError('FILE_NOT_READY', 'Only a confirmed file can be catalogued');
      if (state.appId === command.appId && state.versionId === command.versionId) return [];
      const { type: _type, ...payload } = command;
      return [{ type: 'FileCatalogued', payload }];
    },
    DeleteFile: (command, state) => {
      if (!state.file) throw new AppError('NOT_FOUND', 'File not found');
      return state.status === 'deleted' ? [] : [{ type: 'FileDeleted', payload: { fileId: command.fileId, reason: command.reason } }];
    },
  },
});

type Added = Extract<AppEvent, { type: 'AppVersionAdded' }>['payload'];

export interface AppState {
  app: Pick<Added, 'appId' | 'companyId' | 'workspaceId' | 'platform' | 'identifier'> | null;
  /** Live versions by id. */
  versions: Map<string, { sha256: string; fileId: string }>;
}

export type AppCommand = ({ type: 'AddAppVersion' } & Added) | { type: 'DeleteAppVersion'; appId: string; versionId: string } | { type: 'DeleteApp'; appId: string };

/**
 * One app of the catalog and its versions. A version is its bytes: adding bytes some live version
 * already has adds nothing. Deleting the last version leaves the app listed with none until it is
 * deleted; adding a version to a deleted app lists it again.
 */
export const appDecider = defineDecider<AppCommand, AppEvent, AppState>({
  initialState: () => ({ app: null, versions: new Map() }),
  evolve: {
    AppVersionAdded: (s, e) => {
      const { appId, companyId, workspaceId, platform, identifier } = e.payload;
      const versions = new Map(s.versions);
      versions.set(e.payload.versionId, { sha256: e.payload.sha256, fileId: e.payload.fileId });
      return { app: { appId, companyId, workspaceId, platform, identifier }, versions };
    },
    AppVersionDeleted: (s, e) => {
      const versions = new Map(s.versions);
      versions.delete(e.payload.versionId);
      return { ...s, versions };
    },
    AppDeleted: () => ({ app: null, versions: new Map() }),
  },
  decide: {
    AddAppVersion: (command, state) => {
      if ([...state.versions.values()].some((v) => v.sha256 === command.sha256)) return [];
      const { type: _type, ...payload } = command;
      return [{ type: 'AppVersionAdded', payload }];
    },
    DeleteAppVersion: (command, state) => {
      const version = state.app ? state.versions.get(command.versionId) : undefined;
      if (!version) throw new AppError('NOT_FOUND', 'App version not found');
      return [{ type: 'AppVersionDeleted', payload: { appId: command.appId, versionId: command.versionId, fileId: version.fileId } }];
    },
    DeleteApp: (command, state) => {
      if (!state.app) throw new AppError('NOT_FOUND', 'App not found');
      return [{ type: 'AppDeleted', payload: { appId: command.appId, versionIds: [...state.versions.keys()] } }];
    },
  },
});
