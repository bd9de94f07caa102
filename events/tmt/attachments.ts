import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

/** Payloads of the `tmt-attachment-<uuid>` stream, checked when a projection reads them. */
export const attachmentEvents = defineEvents({
  TmtAttachmentUploaded: z.object({
    attachmentId: z.string(),
    ...tenantScope,
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    blobKey: z.string(),
    uploadedBy: z.number().int(),
  }),
  TmtAttachmentDeleted: z.object({ attachmentId: z.string(), blobKey: z.string() }),
});

/** A file attached in a workspace (a build, a log, a screenshot); its bytes live in blob storage. */
export type AttachmentEvent = EventOf<typeof attachmentEvents>;

export const ATTACHMENT_EVENT_TYPES = attachmentEvents.types;

export const attachmentStream = (attachmentId: string): string => `tmt-attachment-${attachmentId}`;

/** Where an attachment's bytes are kept: under its company and workspace, so usage can be summed per tenant. */
export const attachmentBlobKey = (companyId: number, workspaceId: number, attachmentId: string): string =>
  `company-${companyId}/workspace-${workspaceId}/tmt-attachments/${attachmentId}`;
