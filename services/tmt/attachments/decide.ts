import { type Decider, firstEvent } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { AttachmentEvent } from '#events/tmt/attachments.js';
import { unreachable } from '#shared/unreachable.js';

type Uploaded = Extract<AttachmentEvent, { type: 'TmtAttachmentUploaded' }>['payload'];

export type AttachmentCommand = ({ type: 'RecordAttachment' } & Uploaded) | { type: 'DeleteAttachment'; companyId: number; workspaceId: number };

export type AttachmentState = { status: 'none' } | { status: 'stored'; attachment: Uploaded } | { status: 'deleted' };

/** An attachment: recorded once its bytes are stored, deleted at most once, never changed. */
export const attachmentDecider: Decider<AttachmentCommand, AttachmentEvent, AttachmentState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'TmtAttachmentUploaded':
        return { status: 'stored', attachment: event.payload };
      case 'TmtAttachmentDeleted':
        return { status: 'deleted' };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RecordAttachment':
        return [firstEvent(state.status !== 'none', 'Attachment', 'TmtAttachmentUploaded', command)];
      case 'DeleteAttachment': {
        if (state.status !== 'stored' || state.attachment.companyId !== command.companyId || state.attachment.workspaceId !== command.workspaceId) {
          throw new AppError('NOT_FOUND', 'Attachment not found');
        }
        return [{ type: 'TmtAttachmentDeleted', payload: { attachmentId: state.attachment.attachmentId, blobKey: state.attachment.blobKey } }];
      }
      default:
        return unreachable(command);
    }
  },
};
