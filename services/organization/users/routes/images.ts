import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userImage } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { callerOf, IdParams, User } from '../../http.js';
import { MAX_PROFILE_IMAGE_BYTES, profileImageKey, readMultipart, withImageUploads } from '../images.js';
import { tags, userGuards, type UsersOptions } from '../http.js';

/** A user's profile image: set (multipart), read, remove. */
export async function imageRoutes(app: FastifyInstance, opts: UsersOptions): Promise<void> {
  const { platform } = opts;
  const { db } = platform;
  const { selfOr, write, change } = userGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  await withImageUploads(app, (u) => {
    u.put('/users/:id/image', {
      schema: { tags, summary: 'Set a profile image: multipart/form-data with a profileImage part (yourself, or USER_MANAGE)', params: IdParams, response: { 200: User } },
      handler: async (request) => {
        const p = callerOf(request);
        const user = await selfOr(request, request.params.id, 'USER_MANAGE');
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data');
        const { image } = await readMultipart(request, 'profileImage');
        if (!image) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: 'profileImage', message: 'Required' }] });
        const info = await platform.blobs.put(profileImageKey(p.companyId, user.id), image.bytes, { contentType: image.contentType, maxBytes: MAX_PROFILE_IMAGE_BYTES });
        const stored = { key: info.key, contentType: info.contentType, size: info.size, sha256: info.sha256 };
        return change(request, user, { type: 'SetProfileImage', companyId: p.companyId, image: stored });
      },
    });
  });

  r.get('/users/:id/image', {
    schema: { tags, summary: 'The profile image, as stored (USER_READ, or yourself)', params: IdParams },
    handler: async (request, reply) => {
      const p = callerOf(request);
      await selfOr(request, request.params.id, 'USER_READ');
      const image = await userImage(db, p.companyId, request.params.id);
      const blob = found(image ? await platform.blobs.get(image.key) : null, 'User has no profile image');
      return reply
        .type(blob.info.contentType)
        .header('content-length', String(blob.info.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=60')
        .header('etag', `"${blob.info.sha256}"`)
        .send(blob.stream);
    },
  });

  r.delete('/users/:id/image', {
    schema: { tags, summary: 'Remove the profile image (yourself, or USER_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const p = callerOf(request);
      await selfOr(request, request.params.id, 'USER_MANAGE');
      const image = await userImage(db, p.companyId, request.params.id);
      await write(request, request.params.id, { type: 'RemoveProfileImage', companyId: p.companyId }, async () => {
        if (image) await platform.blobs.delete(image.key);
      });
      return reply.code(204).send(null);
    },
  });
}
