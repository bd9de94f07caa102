import { attachmentStream } from '#events/tmt/attachments.js';
import type { BlobInfo } from '#shared/blob/index.js';
import { aggregate } from '#shared/es/index.js';
import type { CommandContext } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { attachmentDecider } from './decide.js';

/** Who stores an attachment, and where. */
export interface AttachmentOwner {
  userId: number;
  companyId: number;
  workspaceId: number;
}

/**
 * The write side of attachments: the record of bytes already stored, and their deletion. The record
 * comes after the bytes and the bytes go after the record, so a download never finds one without the other.
 */
export function attachmentWrites(platform: Platform) {
  const attachments = aggregate(platform, { decider: attachmentDecider, stream: attachmentStream, readModels: ['tmt-attachments'] });
  return {
    /** Records stored bytes; when the record is refused, the bytes are deleted (nothing points at them). */
    async record(owner: AttachmentOwner, attachmentId: string, blobKey: string, stored: { info: BlobInfo; filename: string }, context: CommandContext): Promise<void> {
      const command = {
        type: 'RecordAttachment' as const,
        attachmentId,
        companyId: owner.companyId,
        workspaceId: owner.workspaceId,
        filename: stored.filename,
        contentType: stored.info.contentType,
        size: stored.info.size,
        sha256: stored.info.sha256,
        blobKey,
        uploadedBy: owner.userId,
      };
      let appended;
      try {
        appended = await attachments.run(attachmentId, command, context, { settle: false });
      } catch (err) {
        await platform.blobs.delete(blobKey);
        throw err;
      }
      await attachments.settle(appended);
    },

    /** Deletes the record, then its bytes. */
    async delete(owner: Omit<AttachmentOwner, 'userId'>, record: { id: string; blobKey: string }, context: CommandContext): Promise<void> {
      await attachments.run(record.id, { type: 'DeleteAttachment', companyId: owner.companyId, workspaceId: owner.workspaceId }, context);
      await platform.blobs.delete(record.blobKey);
    },
  };
}
