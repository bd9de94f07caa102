import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileView, listFiles } from '#projections/df-files/index.js';
import { caller, idParam, multi, noContent, pageOf, paging } from '../../http.js';
import { MAX_PART_BYTES, MIN_PART_BYTES } from '../limits.js';
import { absoluteUrls, File, FileParams, tags, type FileRoutesOptions } from './schemas.js';

const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'a hex SHA-256').transform((s) => s.toLowerCase());
const name = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((n) => !/[/\\\u0000-\u001f]/.test(n), 'a file name, without folders or control characters');
const contentType = z.string().trim().min(1).max(255).regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, 'a media type').default('application/octet-stream');
const size = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const Signed = { url: z.string(), method: z.literal('PUT'), expiresAt: z.string() };

/** `/df/api/files` and its uploads: the workspace's files, a signed single PUT or a multipart upload, confirm, abort. */
export async function uploadRoutes(app: FastifyInstance, opts: FileRoutesOptions): Promise<void> {
  const { platform, files } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { signed } = absoluteUrls(app);

  r.get('/api/files', {
    schema: {
      tags,
      summary: "The workspace's files, newest first",
      querystring: z.object({ ...paging, status: multi(z.enum(['pending', 'ready', 'failed'])), kind: z.enum(['app', 'file']).optional(), search: z.string().max(200).optional() }),
      response: { 200: pageOf(File) },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const q = request.query;
      return listFiles(platform.db, c, { page: q.page, size: q.size, status: q.status, kind: q.kind, search: q.search, sortDir: q.sortDir });
    },
  });

  r.post('/api/files/presigned-upload', {
    schema: {
      tags,
      summary: 'Start an upload: PUT the bytes to the answered URL (with its headers), then confirm',
      body: z.object({ name, size, contentType, sha256: sha256.optional() }),
      response: { 201: z.object({ fileId: z.string(), ...Signed, headers: z.record(z.string(), z.string()) }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:file:manage');
      const { fileId, ...s } = await files.presignUpload(c, request.body);
      reply.code(201).header('cache-control', 'no-store');
      return { fileId, ...signed(request, s), method: 'PUT' as const };
    },
  });

  r.post('/api/files/:fileId/confirm', {
    schema: { tags, summary: 'Confirm an upload: size and checksum are checked, app builds are catalogued', params: FileParams, response: { 200: File } },
    handler: async (request) => fileView(await files.confirm(await caller(request, 'df:file:manage'), request.params.fileId)),
  });

  r.post('/api/files/multipart/initiate', {
    schema: {
      tags,
      summary: `Start a multipart upload; parts of partSize bytes (${MIN_PART_BYTES / 1024 / 1024}–${MAX_PART_BYTES / 1024 / 1024} MiB, the last one shorter)`,
      body: z.object({ name, size, contentType, partSize: z.number().int().min(MIN_PART_BYTES).max(MAX_PART_BYTES).optional(), sha256: sha256.optional() }),
      response: { 201: z.object({ fileId: z.string(), partSize: z.number(), partCount: z.number(), expiresAt: z.string() }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:file:manage');
      const started = await files.initiateMultipart(c, request.body);
      reply.code(201);
      return { fileId: started.fileId, partSize: started.partSize, partCount: started.partCount, expiresAt: started.expiresAt.toISOString() };
    },
  });

  r.get('/api/files/multipart/:fileId/part/:partNumber', {
    schema: {
      tags,
      summary: "A signed PUT for one part; its answer's ETag header is what complete needs (ask again to retry a part)",
      params: z.object({ fileId: idParam, partNumber: z.coerce.number().int().min(1).max(10_000) }),
      response: { 200: z.object({ ...Signed }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:file:manage');
      const s = await files.partUrl(c, request.params.fileId, request.params.partNumber);
      reply.header('cache-control', 'no-store');
      const { url, expiresAt } = signed(request, s);
      return { url, method: 'PUT' as const, expiresAt };
    },
  });

  r.post('/api/files/multipart/:fileId/complete', {
    schema: {
      tags,
      summary: 'Join the parts (every part once, with its ETag) and confirm the file',
      params: FileParams,
      body: z.object({ parts: z.array(z.object({ partNumber: z.number().int().min(1).max(10_000), etag: z.string().min(1).max(200) })).min(1).max(10_000) }),
      response: { 200: File },
    },
    handler: async (request) => fileView(await files.completeMultipart(await caller(request, 'df:file:manage'), request.params.fileId, request.body.parts)),
  });

  r.delete('/api/files/multipart/:fileId', {
    schema: { tags, summary: 'Abort a multipart upload: every part sent is deleted', params: FileParams, response: { 204: z.null() } },
    handler: async (request, reply) => noContent(reply, files.abortMultipart(await caller(request, 'df:file:manage'), request.params.fileId)),
  });
}
