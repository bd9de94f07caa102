import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { type Row, iso } from '#shared/db/index.js';
import { Conditions, oneOrNull, readPage, type WorkspaceScope } from '../queries.js';

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
  createdAt: iso(r.created_at),
  blobKey: String(r.blob_key),
});
const toView = (r: Row): AttachmentView => {
  const { blobKey: _key, ...view } = toStored(r);
  return view;
};

/** Attachments of the workspace, newest first. */
export async function listAttachments(db: Sql, scope: WorkspaceScope, paging: { page: number; size: number }): Promise<Page<AttachmentView>> {
  return readPage(db, { from: 'tmt_attachments', where: Conditions.inWorkspace(scope), orderBy: 'created_at DESC, attachment_id' }, paging, toView);
}

/** One attachment of the workspace, or null (also for another tenant's). */
export async function findAttachment(db: Sql, scope: WorkspaceScope, attachmentId: string): Promise<StoredAttachment | null> {
  return oneOrNull(db, `SELECT * FROM tmt_attachments WHERE attachment_id = $1 AND company_id = $2 AND workspace_id = $3`, [attachmentId, scope.companyId, scope.workspaceId], toStored);
}
