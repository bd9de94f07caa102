import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileView } from '#projections/df-files/index.js';
import { caller, noContent } from '../../http.js';
import { absoluteUrls, File, FileParams, tags, type FileRoutesOptions } from './schemas.js';

/** `/df/api/files/{fileId}`: one file: read, download by a short-lived signed URL, delete. */
export async function oneFileRoutes(app: FastifyInstance, opts: FileRoutesOptions): Promise<void> {
  const { files } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { absolute } = absoluteUrls(app);

  r.get('/api/files/:fileId', {
    schema: { tags, summary: 'One file', params: FileParams, response: { 200: File } },
    handler: async (request) => fileView(await files.get(await caller(request, 'df:session:read'), request.params.fileId)),
  });

  r.get('/api/files/:fileId/download', {
    schema: {
      tags,
      summary: 'Download: 302 to a short-lived signed URL',
      params: FileParams,
      response: {
        302: z.null().meta({
          description: 'Found: the bytes are at the `Location` URL (no credential needed there) until the signature expires',
          headers: {
            location: { type: 'string', format: 'uri', description: 'The short-lived signed URL of the bytes' },
            'cache-control': { type: 'string', const: 'no-store', description: 'The signed URL is not to be cached' },
          },
        }),
      },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:read');
      const s = await files.downloadUrl(c, request.params.fileId);
      reply.header('cache-control', 'no-store');
      return reply.redirect(absolute(request, s.url), 302);
    },
  });

  r.delete('/api/files/:fileId', {
    schema: { tags, summary: 'Delete a file (a pending multipart upload is aborted; the app version it holds goes too)', params: FileParams, response: { 204: z.null() } },
    handler: async (request, reply) => noContent(reply, files.delete(await caller(request, 'df:file:manage'), request.params.fileId)),
  });
}
