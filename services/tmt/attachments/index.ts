export { attachmentDecider, type AttachmentCommand, type AttachmentState } from './decide.js';
export { ATTACHMENT_EVENT_TYPES, attachmentBlobKey, attachmentStream, type AttachmentEvent } from '#events/tmt/attachments.js';
export { attachmentDownloadKind, attachmentRoutes, cleanFilename, normaliseContentType } from './routes.js';
