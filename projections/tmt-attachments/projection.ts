import { ATTACHMENT_EVENT_TYPES, attachmentEvents, type AttachmentEvent } from '#events/tmt/attachments.js';
import { applyByType, type Projection } from '../types.js';

/** Attachments of each workspace: what they are and where their bytes are. */
export const tmtAttachmentsProjection: Projection = {
  name: 'tmt-attachments',
  version: 1,
  eventTypes: ATTACHMENT_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS tmt_attachments (
      attachment_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      filename text NOT NULL,
      content_type text NOT NULL,
      size bigint NOT NULL,
      sha256 text NOT NULL,
      blob_key text NOT NULL,
      uploaded_by integer NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS tmt_attachments_workspace ON tmt_attachments (company_id, workspace_id, created_at);`,
  tables: ['tmt_attachments'],
  apply: applyByType<AttachmentEvent>({
    TmtAttachmentUploaded: async (tx, { payload: p }, at) => {
      await tx.query(
        `INSERT INTO tmt_attachments (attachment_id, company_id, workspace_id, filename, content_type, size, sha256, blob_key, uploaded_by, created_at)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) ON CONFLICT (attachment_id) DO NOTHING`,
        [p.attachmentId, p.companyId, p.workspaceId, p.filename, p.contentType, p.size, p.sha256, p.blobKey, p.uploadedBy, at],
      );
    },
    TmtAttachmentDeleted: (tx, event) => tx.query(`DELETE FROM tmt_attachments WHERE attachment_id = $1`, [event.payload.attachmentId]),
  }, attachmentEvents),
};
