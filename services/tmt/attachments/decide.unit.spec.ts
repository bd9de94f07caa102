import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { attachmentDecider } from './decide.js';
import type { AttachmentEvent } from '#events/tmt/attachments.js';

const spec = deciderSpec(attachmentDecider);
const payload = {
  attachmentId: 'a-1',
  companyId: 1,
  workspaceId: 4,
  filename: 'app.apk',
  contentType: 'application/vnd.android.package-archive',
  size: 10,
  sha256: 'ab',
  blobKey: 'company-1/workspace-4/tmt-attachments/a-1',
  uploadedBy: 7,
};
const uploaded: AttachmentEvent = { type: 'TmtAttachmentUploaded', payload };
const deleted: AttachmentEvent = { type: 'TmtAttachmentDeleted', payload: { attachmentId: 'a-1', blobKey: payload.blobKey } };

describe('attachment decider', () => {
  it('records an attachment once', () => {
    spec.given([]).when({ type: 'RecordAttachment', ...payload }).then([uploaded]);
    spec.given([uploaded]).when({ type: 'RecordAttachment', ...payload }).thenRefused('ALREADY_EXISTS');
  });

  it('deletes it once, and only in its own company and workspace', () => {
    spec.given([uploaded]).when({ type: 'DeleteAttachment', companyId: 1, workspaceId: 4 }).then([deleted]);
    spec.given([uploaded]).when({ type: 'DeleteAttachment', companyId: 1, workspaceId: 5 }).thenRefused('NOT_FOUND');
    spec.given([uploaded]).when({ type: 'DeleteAttachment', companyId: 2, workspaceId: 4 }).thenRefused('NOT_FOUND');
    spec.given([uploaded, deleted]).when({ type: 'DeleteAttachment', companyId: 1, workspaceId: 4 }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'DeleteAttachment', companyId: 1, workspaceId: 4 }).thenRefused('NOT_FOUND');
  });
});
