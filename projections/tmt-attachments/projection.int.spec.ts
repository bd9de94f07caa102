import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { tmtAttachmentsProjection } from './projection.js';
import { findAttachment, listAttachments } from './queries.js';

const A1 = '00000000-0000-4000-8000-0000000000b1';
const uploaded = (attachmentId: string, workspaceId = 1) => ({
  type: 'TmtAttachmentUploaded',
  payload: { attachmentId, companyId: 1, workspaceId, filename: 'build.log', contentType: 'text/plain', size: 12, sha256: 'ab'.repeat(32), blobKey: `k/${attachmentId}`, uploadedBy: 7 },
});
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(tmtAttachmentsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('tmt-attachments read model', () => {
  it('given an upload, finds it with where its bytes are, in its workspace only', async () => {
    await spec.given(uploaded(A1), uploaded('00000000-0000-4000-8000-0000000000b2', 2));
    expect(await findAttachment(spec.db, { companyId: 1, workspaceId: 1 }, A1)).toEqual({
      id: A1, filename: 'build.log', contentType: 'text/plain', size: 12, sha256: 'ab'.repeat(32), uploadedBy: 7, workspaceId: 1, createdAt: SPEC_TIME, blobKey: `k/${A1}`,
    });
    expect(await findAttachment(spec.db, { companyId: 1, workspaceId: 2 }, A1)).toBeNull();
    expect((await listAttachments(spec.db, { companyId: 1, workspaceId: 1 }, { page: 0, size: 10 })).totalElements).toBe(1);
  });

  it('given a deletion, the attachment is gone', async () => {
    await spec.given(uploaded(A1), { type: 'TmtAttachmentDeleted', payload: { attachmentId: A1, blobKey: `k/${A1}` } });
    expect(await findAttachment(spec.db, { companyId: 1, workspaceId: 1 }, A1)).toBeNull();
  });
});
