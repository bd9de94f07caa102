import { appEvents, fileEvents, type AppEvent, type FileEvent } from '#events/df/files.js';
import type { Sql } from '#shared/db/index.js';
import { applyByType, type Projection } from '../types.js';

/** A numeric version code (Android's always are; an iOS build number may not be), for ordering versions. */
const codeNumber = (code: string) => (/^\d{1,15}$/.test(code) ? Number(code) : null);

/** An app's newest live version (by version code, then by upload) and its count of live versions. */
const refreshApp = (tx: Sql, appId: string, at: string) =>
  tx.query(
    `UPDATE df_apps SET
       latest_version_id = (SELECT version_id FROM df_app_versions WHERE app_id = $1 AND deleted_at IS NULL ORDER BY version_code_num DESC NULLS LAST, created_at DESC, version_id LIMIT 1),
       version_count = (SELECT count(*) FROM df_app_versions WHERE app_id = $1 AND deleted_at IS NULL),
       updated_at = $2
     WHERE app_id = $1`,
    [appId, at],
  );

/** Uploaded files, the app catalog and its versions, for `/df/api/files/**`. */
export const dfFilesProjection: Projection = {
  name: 'df-files',
  version: 2,
  eventTypes: [...fileEvents.types, ...appEvents.types],
  schema: `
    CREATE TABLE IF NOT EXISTS df_files (
      file_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      name text NOT NULL,
      size bigint NOT NULL,
      content_type text NOT NULL,
      sha256 text,
      declared_sha256 text,
      status text NOT NULL,
      kind text NOT NULL,
      app_id text,
      version_id text,
      blob_key text NOT NULL,
      upload_key text,
      upload_id text,
      part_size bigint,
      part_count integer,
      expires_at timestamptz NOT NULL,
      uploaded_by integer NOT NULL,
      failure text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS df_files_workspace ON df_files (company_id, workspace_id, created_at DESC) WHERE deleted_at IS NULL;
    CREATE INDEX IF NOT EXISTS df_files_pending ON df_files (expires_at) WHERE status = 'pending';
    ALTER TABLE df_files ADD COLUMN IF NOT EXISTS upload_key text;
    CREATE INDEX IF NOT EXISTS df_files_upload_key ON df_files (upload_key);
    CREATE TABLE IF NOT EXISTS df_apps (
      app_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      platform text NOT NULL,
      identifier text NOT NULL,
      name text NOT NULL,
      icon_key text,
      latest_version_id text,
      version_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS df_apps_workspace ON df_apps (company_id, workspace_id, name) WHERE deleted_at IS NULL;
    CREATE TABLE IF NOT EXISTS df_app_versions (
      version_id text PRIMARY KEY,
      app_id text NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      version_name text NOT NULL,
      version_code text NOT NULL,
      version_code_num bigint,
      min_os text NOT NULL,
      target_os text NOT NULL,
      abis jsonb NOT NULL,
      permissions jsonb NOT NULL,
      file_id text NOT NULL,
      size bigint NOT NULL,
      sha256 text NOT NULL,
      created_at timestamptz NOT NULL,
      deleted_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS df_app_versions_app ON df_app_versions (app_id, created_at DESC);`,
  tables: ['df_files', 'df_apps', 'df_app_versions'],
  apply: applyByType<FileEvent | AppEvent>({
    FileUploadStarted: (tx, e, at) => {
      const p = e.payload;
      return tx.query(
        `INSERT INTO df_files (file_id, company_id, workspace_id, name, size, content_type, declared_sha256, status, kind, blob_key, upload_id, part_size, part_count, expires_at, uploaded_by, created_at, updated_at, upload_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', 'file', $8, $9, $10, $11, $12, $13, $14, $14, $15) ON CONFLICT (file_id) DO NOTHING`,
        [p.fileId, p.companyId, p.workspaceId, p.name, p.size, p.contentType, p.sha256, p.blobKey, p.uploadId, p.partSize, p.partCount, p.expiresAt, p.uploadedBy, at, p.uploadKey ?? p.blobKey],
      );
    },
    FileUploadAborted: (tx, e, at) => tx.query(`UPDATE df_files SET status = 'failed', failure = $2, deleted_at = $3, updated_at = $3 WHERE file_id = $1`, [e.payload.fileId, e.payload.reason, at]),
    FileConfirmed: (tx, e, at) =>
      tx.query(`UPDATE df_files SET status = 'ready', size = $2, sha256 = $3, kind = $4, updated_at = $5 WHERE file_id = $1`, [e.payload.fileId, e.payload.size, e.payload.sha256, e.payload.kind, at]),
    FileRejected: (tx, e, at) => tx.query(`UPDATE df_files SET status = 'failed', failure = $2, updated_at = $3 WHERE file_id = $1`, [e.payload.fileId, `${e.payload.code}: ${e.payload.reason}`, at]),
    FileCatalogued: (tx, e, at) => tx.query(`UPDATE df_files SET kind = 'app', app_id = $2, version_id = $3, updated_at = $4 WHERE file_id = $1`, [e.payload.fileId, e.payload.appId, e.payload.versionId, at]),
    FileDeleted: (tx, e, at) => tx.query(`UPDATE df_files SET deleted_at = $2, updated_at = $2 WHERE file_id = $1`, [e.payload.fileId, at]),
    AppVersionAdded: async (tx, e, at) => {
      const p = e.payload;
      await tx.query(
        `INSERT INTO df_apps (app_id, company_id, workspace_id, platform, identifier, name, icon_key, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
         ON CONFLICT (app_id) DO UPDATE SET name = EXCLUDED.name, icon_key = COALESCE(EXCLUDED.icon_key, df_apps.icon_key), deleted_at = NULL, updated_at = EXCLUDED.updated_at`,
        [p.appId, p.companyId, p.workspaceId, p.platform, p.identifier, p.name, p.iconKey, at],
      );
      await tx.query(
        `INSERT INTO df_app_versions (version_id, app_id, company_id, workspace_id, version_name, version_code, version_code_num, min_os, target_os, abis, permissions, file_id, size, sha256, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14, $15)
         ON CONFLICT (version_id) DO UPDATE SET deleted_at = NULL, file_id = EXCLUDED.file_id, created_at = EXCLUDED.created_at`,
        [p.versionId, p.appId, p.companyId, p.workspaceId, p.versionName, p.versionCode, codeNumber(p.versionCode), p.minOs, p.targetOs, JSON.stringify(p.abis), JSON.stringify(p.permissions), p.fileId, p.size, p.sha256, at],
      );
      await refreshApp(tx, p.appId, at);
    },
    AppVersionDeleted: async (tx, e, at) => {
      await tx.query(`UPDATE df_app_versions SET deleted_at = $2 WHERE version_id = $1`, [e.payload.versionId, at]);
      await refreshApp(tx, e.payload.appId, at);
    },
    AppDeleted: async (tx, e, at) => {
      await tx.query(`UPDATE df_app_versions SET deleted_at = $2 WHERE app_id = $1 AND deleted_at IS NULL`, [e.payload.appId, at]);
      await tx.query(`UPDATE df_apps SET deleted_at = $2, updated_at = $2, latest_version_id = NULL, version_count = 0 WHERE app_id = $1`, [e.payload.appId, at]);
    },
  }),
};
