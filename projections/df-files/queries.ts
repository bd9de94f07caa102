import type { Sql } from '#shared/db/index.js';
import type { AppMetadata } from '#shared/apps/index.js';
import { iso, json, numOrNull, textOrNull, type Row } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { Conditions, containing, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

/** Whose the rows are: one company's workspace. */
export type FileScope = WorkspaceScope;

/** A file as the API shows it. */
export interface FileView {
  id: string;
  name: string;
  size: number;
  contentType: string;
  sha256: string | null;
  status: 'pending' | 'ready' | 'failed';
  kind: 'app' | 'file';
  appId?: string;
  versionId?: string;
  createdAt: string;
  uploadedBy: number;
}

/** What the service needs besides the view: where the bytes are and how the upload was started. */
export interface FileRecord extends FileView {
  companyId: number;
  workspaceId: number;
  blobKey: string;
  /** Where the signed upload URLs put the bytes until confirmation moves them to `blobKey` (the same key for uploads from before the two were apart). */
  uploadKey: string;
  declaredSha256: string | null;
  uploadId: string | null;
  partSize: number | null;
  partCount: number | null;
  expiresAt: string;
  failure: string | null;
}

export interface AppView {
  id: string;
  platform: 'android' | 'ios';
  identifier: string;
  name: string;
  latestVersionId: string | null;
  versionCount: number;
  iconKey: string | null;
}

/** A version of an app: what its build says of itself, and the file it came in. */
export interface AppVersionView extends Pick<AppMetadata, 'versionName' | 'versionCode' | 'minOs' | 'targetOs' | 'abis' | 'permissions'> {
  id: string;
  appId: string;
  fileId: string;
  size: number;
  sha256: string;
  createdAt: string;
}

const toFile = (r: Row): FileRecord => ({
  id: String(r.file_id),
  name: String(r.name),
  size: Number(r.size),
  contentType: String(r.content_type),
  sha256: textOrNull(r.sha256),
  status: r.status as FileView['status'],
  kind: r.kind as FileView['kind'],
  ...(r.app_id ? { appId: String(r.app_id) } : {}),
  ...(r.version_id ? { versionId: String(r.version_id) } : {}),
  createdAt: iso(r.created_at),
  uploadedBy: Number(r.uploaded_by),
  companyId: Number(r.company_id),
  workspaceId: Number(r.workspace_id),
  blobKey: String(r.blob_key),
  uploadKey: String(r.upload_key ?? r.blob_key),
  declaredSha256: textOrNull(r.declared_sha256),
  uploadId: textOrNull(r.upload_id),
  partSize: numOrNull(r.part_size),
  partCount: numOrNull(r.part_count),
  expiresAt: iso(r.expires_at),
  failure: textOrNull(r.failure),
});

/** The API's view of a file record. */
export function fileView(f: FileRecord): FileView {
  const { id, name, size, contentType, sha256, status, kind, appId, versionId, createdAt, uploadedBy } = f;
  return { id, name, size, contentType, sha256, status, kind, ...(appId ? { appId } : {}), ...(versionId ? { versionId } : {}), createdAt, uploadedBy };
}

const toApp = (r: Row): AppView => ({
  id: String(r.app_id),
  platform: r.platform as AppView['platform'],
  identifier: String(r.identifier),
  name: String(r.name),
  latestVersionId: textOrNull(r.latest_version_id),
  versionCount: Number(r.version_count),
  iconKey: textOrNull(r.icon_key),
});

const toVersion = (r: Row): AppVersionView => ({
  id: String(r.version_id),
  appId: String(r.app_id),
  versionName: String(r.version_name),
  versionCode: String(r.version_code),
  minOs: String(r.min_os),
  targetOs: String(r.target_os),
  abis: json<string[]>(r.abis),
  permissions: json<string[]>(r.permissions),
  fileId: String(r.file_id),
  size: Number(r.size),
  sha256: String(r.sha256),
  createdAt: iso(r.created_at),
});

/** One file of the workspace that is not deleted (pending, ready or failed), or null. */
export async function findFile(db: Sql, scope: FileScope, fileId: string): Promise<FileRecord | null> {
  return oneOrNull(db, `SELECT * FROM df_files WHERE file_id = $1 AND company_id = $2 AND workspace_id = $3 AND deleted_at IS NULL`, [fileId, scope.companyId, scope.workspaceId], toFile);
}

/** The workspace's files, newest first, filtered by status, kind and a name search. */
export async function listFiles(
  db: Sql,
  scope: FileScope,
  q: { page: number; size: number; status?: string[] | undefined; kind?: string | undefined; search?: string | undefined; sortDir?: 'asc' | 'desc' | undefined },
): Promise<Page<FileView>> {
  const where = Conditions.inWorkspace(scope, 'deleted_at IS NULL');
  if (q.status?.length) where.add((n) => `status = ANY(${n}::text[])`, q.status);
  if (q.kind) where.add((n) => `kind = ${n}`, q.kind);
  if (q.search) where.add((n) => `name ILIKE ${n}`, containing(q.search));
  const orderBy = `created_at ${q.sortDir === 'asc' ? 'ASC' : 'DESC'}, file_id`;
  return readPage(db, { from: 'df_files', where, orderBy }, q, (r) => fileView(toFile(r)));
}

/** The state of an upload as its signed URLs see it (by the key they name): `pending`, `ready`, `failed`, or null when the file is gone or unknown. */
export async function uploadStatus(db: Sql, uploadKey: string): Promise<'pending' | 'ready' | 'failed' | null> {
  const r = await db.query(`SELECT status FROM df_files WHERE upload_key = $1 AND deleted_at IS NULL LIMIT 1`, [uploadKey]);
  return (r.rows[0]?.status as 'pending' | 'ready' | 'failed' | undefined) ?? null;
}

/** Uploads never confirmed whose time ran out before `before`, in every company (the cleaner's work). */
export async function expiredUploads(db: Sql, before: Date, limit = 100): Promise<FileRecord[]> {
  const r = await db.query(`SELECT * FROM df_files WHERE status = 'pending' AND deleted_at IS NULL AND expires_at < $1 ORDER BY expires_at LIMIT ${limit}`, [before.toISOString()]);
  return r.rows.map(toFile);
}

/** Ready files of the workspace that are not catalogued (the backfill's candidates), oldest first. */
export async function uncataloguedFiles(db: Sql, scope: FileScope): Promise<FileRecord[]> {
  const r = await db.query(`SELECT * FROM df_files WHERE company_id = $1 AND workspace_id = $2 AND status = 'ready' AND deleted_at IS NULL AND version_id IS NULL ORDER BY created_at, file_id`, [scope.companyId, scope.workspaceId]);
  return r.rows.map(toFile);
}

/** Bytes of the company's files that are stored (pending uploads count their announced size). */
export async function storageUsed(db: Sql, companyId: number): Promise<number> {
  const r = await db.query<{ n: unknown }>(`SELECT COALESCE(sum(size), 0) AS n FROM df_files WHERE company_id = $1 AND deleted_at IS NULL AND status <> 'failed'`, [companyId]);
  return Number(r.rows[0]?.n ?? 0);
}

/** The workspace's catalogued apps, by name. */
export async function listApps(db: Sql, scope: FileScope, q: { page: number; size: number; platform?: string | undefined; search?: string | undefined }): Promise<Page<AppView>> {
  const where = Conditions.inWorkspace(scope, 'deleted_at IS NULL');
  if (q.platform) where.add((n) => `platform = ${n}`, q.platform);
  if (q.search) where.add((n) => `(name ILIKE ${n} OR identifier ILIKE ${n})`, containing(q.search));
  return readPage(db, { from: 'df_apps', where, orderBy: 'lower(name), identifier, app_id' }, q, toApp);
}

export async function findApp(db: Sql, scope: FileScope, appId: string): Promise<AppView | null> {
  return oneOrNull(db, `SELECT * FROM df_apps WHERE app_id = $1 AND company_id = $2 AND workspace_id = $3 AND deleted_at IS NULL`, [appId, scope.companyId, scope.workspaceId], toApp);
}

/** An app's live versions, newest first (by version code, then upload). */
export async function listVersions(db: Sql, appId: string, q: { page: number; size: number }): Promise<Page<AppVersionView>> {
  const where = Conditions.of(['app_id = $1', 'deleted_at IS NULL'], [appId]);
  return readPage(db, { from: 'df_app_versions', where, orderBy: 'version_code_num DESC NULLS LAST, created_at DESC, version_id' }, q, toVersion);
}

export async function findVersion(db: Sql, scope: FileScope, versionId: string): Promise<AppVersionView | null> {
  return oneOrNull(db, `SELECT * FROM df_app_versions WHERE version_id = $1 AND company_id = $2 AND workspace_id = $3 AND deleted_at IS NULL`, [versionId, scope.companyId, scope.workspaceId], toVersion);
}

/** The workspace's files (not deleted) that hold the bytes of an app version. */
export async function filesOfVersion(db: Sql, scope: FileScope, versionId: string): Promise<FileRecord[]> {
  const r = await db.query(`SELECT * FROM df_files WHERE version_id = $1 AND company_id = $2 AND workspace_id = $3 AND deleted_at IS NULL ORDER BY created_at, file_id`, [versionId, scope.companyId, scope.workspaceId]);
  return r.rows.map(toFile);
}
