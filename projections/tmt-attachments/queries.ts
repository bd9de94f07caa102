import type { Sql } from '#shared/db/index.js';
import { toPage, type Page } from '#shared/paging.js';
import { type Row } from '#shared/db/rows.js';

export interface AttachmentView {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedBy: number;
  workspaceId: number;
  createdAt: string;
}

/** An attachment with where its bytes are, for downloads. */
export interface StoredAttachment extends AttachmentView {
  blobKey: string;
}

const toStored = (r: Row): StoredAttachment => ({
  id: String(r.attachment_id),
  filename: String(r.filename),
  contentType: String(r.content_type),
  size: Number(r.size),
  sha256: String(r.sha256),
  uploadedBy: Number(r.uploaded_by),
  workspaceId: Number(r.workspace_id),
  createdAt: (r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at))).toISOString(),
  blobKey: String(r.blob_key),
});
const toView = (r: Row): AttachmentView => {
  const { blobKey: _key, ...view } = toStored(r);
  return view;
};

/** Attachments of the workspace, newest first. */
export async function listAttachments(db: Sql, scope: { companyId: number; workspaceId: number }, paging: { page: number; size: number }): Promise<Page<AttachmentView>> {
  const params = [scope.companyId, scope.workspaceId];
  const [rows, total] = await Promise.all([
    db.query(`SELECT * FROM tmt_attachments WHERE company_id = $1 AND workspace_id = $2 ORDER BY created_at DESC, attachment_id LIMIT ${paging.size} OFFSET ${paging.page * paging.size}`, params),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM tmt_attachments WHERE company_id = $1 AND workspace_id = $2`, params),
  ]);
  return toPage(rows.rows.map(toView), Number(total.rows[0]?.n ?? 0), paging.page, paging.size);
}

/** One attachment of the workspace, or null (also for another tenant's). */
export async function findAttachment(db: Sql, scope: { companyId: number; workspaceId: number }, attachmentId: string): Promise<StoredAttachment | null> {
  const r = await db.query(`SELECT * FROM tmt_attachments WHERE attachment_id = $1 AND company_id = $2 AND workspace_id = $3`, [attachmentId, scope.companyId, scope.workspaceId]);
  return r.rows[0] ? toStored(r.rows[0]) : null;
}
