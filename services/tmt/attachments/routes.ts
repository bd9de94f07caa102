import { randomUUID } from 'node:crypto';
import { PageQuery, workspaceCaller } from '#shared/http/params.js';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findAttachment, listAttachments, type AttachmentView } from '#projections/tmt-attachments/index.js';
import { BlobTooLargeError, type BlobInfo } from '#shared/blob/index.js';
import { callerActor, commandContext } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import type { DownloadKind } from '../downloads/index.js';
import { attachmentWrites } from './service.js';
import { attachmentBlobKey } from '#events/tmt/attachments.js';

const tags = ['Test management: attachments'];
const FILE_FIELD = 'file';

const Attachment = z
  .object({
    id: z.string(),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    uploadedBy: z.number().int(),
    workspaceId: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'TmtAttachment' });
const Params = z.object({ id: z.uuid() });

/** A media type as `type/subtype` with optional parameters; anything else is stored as octet-stream. */
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,128}(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]{0,128}"|[a-z0-9!#$&^_.+-]{1,128}))*$/i;
export const normaliseContentType = (value: string | undefined): string => (value && MEDIA_TYPE.test(value.trim()) ? value.trim() : 'application/octet-stream');

/** The last path segment of a client's file name, without control characters, at most 255 characters. */
export function cleanFilename(value: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const base = (value ?? '').split(/[\\/]/).pop()!.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base === '' || base === '.' || base === '..' ? 'attachment' : base.slice(0, 255);
}

/** The `attachment` download kind: an attachment of the link's workspace, streamed from blob storage. */
export function attachmentDownloadKind(platform: Platform): DownloadKind {
  return {
    permission: 'TMT_READ',
    exists: async (scope, id) => (await findAttachment(platform.db, scope, id)) !== null,
    async resolve(scope, id) {
      const found = await findAttachment(platform.db, scope, id);
      if (!found) return null;
      const blob = await platform.blobs.get(found.blobKey);
      if (!blob) return null;
      return { filename: found.filename, contentType: found.contentType, size: blob.info.size, stream: blob.stream };
    },
  };
}

/** `/tmt/api/v1/attachments`: upload (multipart, one `file` part), list, read and delete attachments of the workspace. */
export async function attachmentRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const { db } = platform;
  const maxBytes = platform.config.TMT_ATTACHMENT_MAX_BYTES;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const attachmentOr404 = async (scope: { companyId: number; workspaceId: number }, id: string): Promise<AttachmentView> => {
    const record = found(await findAttachment(db, scope, id), 'Attachment not found');
    const { blobKey: _key, ...view } = record;
    return view;
  };
  const writes = attachmentWrites(platform);

  r.get('/tmt/api/v1/attachments', {
    schema: {
      tags,
      summary: 'Attachments of the workspace, newest first (TMT_READ)',
      querystring: PageQuery,
      response: { 200: pageSchema(Attachment, 'TmtAttachmentPage') },
    },
    handler: async (request) => listAttachments(db, await workspaceCaller(request, 'TMT_READ'), request.query),
  });

  r.get('/tmt/api/v1/attachments/:id', {
    schema: { tags, summary: 'One attachment (TMT_READ); its bytes are reached through a download link', params: Params, response: { 200: Attachment } },
    handler: async (request) => attachmentOr404(await workspaceCaller(request, 'TMT_READ'), request.params.id),
  });

  // Multipart is parsed only here; its limits are checked again while the bytes are stored.
  await app.register(async (upload) => {
    await upload.register((await import('@fastify/multipart')).default, { limits: { fileSize: maxBytes + 1, files: 2, fields: 5, parts: 8 } });
    upload.withTypeProvider<ZodTypeProvider>().post('/tmt/api/v1/attachments', {
      schema: {
        tags,
        summary: `Upload one file as multipart/form-data in a part named "${FILE_FIELD}" (TMT_WRITE); at most TMT_ATTACHMENT_MAX_BYTES`,
        consumes: ['multipart/form-data'],
        response: { 201: Attachment },
      },
      handler: async (request, reply) => {
        const c = await workspaceCaller(request, 'TMT_WRITE');
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as multipart/form-data in a part named "${FILE_FIELD}"`);
        const attachmentId = randomUUID();
        const blobKey = attachmentBlobKey(c.companyId, c.workspaceId, attachmentId);
        let stored: { info: BlobInfo; filename: string } | null = null;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field') throw new AppError('BAD_REQUEST', `Unexpected field "${part.fieldname}"; send only a "${FILE_FIELD}" part`);
            if (part.fieldname !== FILE_FIELD || stored) {
              part.file.resume();
              throw new AppError('BAD_REQUEST', stored ? 'Send exactly one file' : `Unexpected file part "${part.fieldname}"; send the file as "${FILE_FIELD}"`);
            }
            const contentType = normaliseContentType(part.mimetype);
            const info = await platform.blobs.put(blobKey, part.file, { contentType, maxBytes });
            stored = { info, filename: cleanFilename(part.filename) };
          }
        } catch (err) {
          if (stored) await platform.blobs.delete(blobKey);
          if (err instanceof BlobTooLargeError || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
          }
          throw err;
        }
        if (!stored) {
          throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: FILE_FIELD, message: 'Required' }] });
        }
        await writes.record(c, attachmentId, blobKey, stored, commandContext(platform, callerActor(c)));
        return reply.code(201).send(await attachmentOr404(c, attachmentId));
      },
    });
  });

  r.delete('/tmt/api/v1/attachments/:id', {
    schema: { tags, summary: 'Delete an attachment and its bytes; links to it stop working (TMT_DELETE)', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await workspaceCaller(request, 'TMT_DELETE');
      const record = found(await findAttachment(db, c, request.params.id), 'Attachment not found');
      // The event first: bytes without a record are unreachable, a record without bytes would be a broken download.
      await writes.delete(c, record, commandContext(platform, callerActor(c)));
      return reply.code(204).send(null);
    },
  });
}
