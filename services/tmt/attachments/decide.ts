import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { AttachmentEvent } from '#events/tmt/attachments.js';

type Uploaded = Extract<AttachmentEvent, { type: 'TmtAttachmentUploaded' }>['payload'];

export type AttachmentCommand = ({ type: 'RecordAttachment' } & Uploaded) | { type: 'DeleteAttachment'; companyId: number; workspaceId: number };

export type AttachmentState = { status: 'none' } | { status: 'stored'; attachment: Uploaded } | { status: 'deleted' };

/** An attachment: recorded once its bytes are stored, deleted at most once, never changed. */
export const attachmentDecider = defineDecider<AttachmentCommand, AttachmentEvent, AttachmentState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    TmtAttachmentUploaded: (state, event) => ({ status: 'stored', attachment: event.payload }),
    TmtAttachmentDeleted: (state, event) => ({ status: 'deleted' }),
  },
  decide: {
    RecordAttachment: (command, state) => [firstEvent(state.status !== 'none', 'Attachment', 'TmtAttachmentUploaded', command)],
    DeleteAttachment: (command, state) => {
      if (state.status !== 'stored' || state.attachment.companyId !== command.companyId || state.attachment.workspaceId !== command.workspaceId) {
        throw new AppError('NOT_FOUND', 'Attachment not found');
      }
      return [{ type: 'TmtAttachmentDeleted', payload: { attachmentId: state.attachment.attachmentId, blobKey: state.attachment.blobKey } }];
    },
  },
});
