import { z } from 'zod';

/** Payloads of the `tmt-attachment-<uuid>` stream, checked when a projection reads them. */
export const AttachmentEventPayloads = {
  TmtAttachmentUploaded: z.object({
    attachmentId: z.string(),
    companyId: z.number().int(),
    workspaceId: z.number().int(),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    blobKey: z.string(),
    uploadedBy: z.number().int(),
  }),
  TmtAttachmentDeleted: z.object({ attachmentId: z.string(), blobKey: z.string() }),
} as const;

type Payloads = typeof AttachmentEventPayloads;

/** A file attached in a workspace (a build, a log, a screenshot); its bytes live in blob storage. */
export type AttachmentEvent = { [K in keyof Payloads]: { type: K; payload: z.infer<Payloads[K]> } }[keyof Payloads];

export const ATTACHMENT_EVENT_TYPES = Object.keys(AttachmentEventPayloads) as AttachmentEvent['type'][];

export const attachmentStream = (attachmentId: string): string => `tmt-attachment-${attachmentId}`;

/** Where an attachment's bytes are kept: under its company and workspace, so usage can be summed per tenant. */
export const attachmentBlobKey = (companyId: number, workspaceId: number, attachmentId: string): string =>
  `company-${companyId}/workspace-${workspaceId}/tmt-attachments/${attachmentId}`;
