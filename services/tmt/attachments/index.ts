import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Platform } from '../../platform.js';
import type { DownloadKinds } from '../downloads/index.js';
import { attachmentDownloadKind, attachmentRoutes } from './routes.js';

export { attachmentDecider, type AttachmentCommand, type AttachmentState } from './decide.js';
export { ATTACHMENT_EVENT_TYPES, attachmentBlobKey, attachmentStream, type AttachmentEvent } from '#events/tmt/attachments.js';
export { cleanFilename, normaliseContentType } from './routes.js';

export interface AttachmentsFeatureOptions {
  platform: Platform;
  /** The module's download kinds: an attachment is handed out as a pre-authorized download link. */
  downloads: DownloadKinds;
}

/** Attachments of the workspace (`/tmt/api/v1/attachments`), kept in blob storage, and the `attachment` download kind. */
export const attachmentsFeature = fp(
  async (app: FastifyInstance, opts: AttachmentsFeatureOptions) => {
    opts.downloads.register('attachment', attachmentDownloadKind(opts.platform));
    await app.register(attachmentRoutes, opts);
  },
  { name: 'tmt-attachments', fastify: '5.x', dependencies: [] },
);
