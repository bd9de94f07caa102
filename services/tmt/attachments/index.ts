export { attachmentDecider, type AttachmentCommand, type AttachmentState } from './decide.js';
export { ATTACHMENT_EVENT_TYPES, attachmentBlobKey, attachmentStream, type AttachmentEvent } from './events.js';
export { attachmentDownloadKind, attachmentRoutes, cleanFilename, normaliseContentType } from './routes.js';
