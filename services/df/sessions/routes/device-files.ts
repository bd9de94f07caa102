import { posix } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { DevicePath } from '#shared/wire/index.js';
import { contentTags as tags, deviceSession, MAX_PUSH_BYTES, pathOrError, readUpload, requireActive, TRANSFER_TIMEOUT_MS, type DeviceContentRoutesOptions } from './device-content.js';
import { Params } from './schemas.js';

/** `/df/api/sessions/{id}/files|folders`: the files of the session's device (in a scope where multipart bodies are read). */
export async function deviceFileRoutes(app: FastifyInstance, opts: DeviceContentRoutesOptions): Promise<void> {
  // Made at registration, as it always was: the OpenAPI document lists named schemas in the order they are made.
  const FileEntry = z
    .object({ name: z.string(), type: z.enum(['file', 'directory', 'other']), size: z.number(), mode: z.number(), modifiedAt: z.string().nullable() })
    .meta({ id: 'DfDeviceFile' });
  const { sessions } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/sessions/:sessionId/files/push', {
    schema: {
      tags,
      summary: `Push a file: multipart/form-data with a "path" field (absolute, on the device) and a "file" part (at most ${MAX_PUSH_BYTES / 1024 / 1024} MiB)`,
      params: Params,
      response: { 201: z.object({ path: z.string(), size: z.number(), sha256: z.string() }) },
    },
    handler: async (request, reply) => {
      const { c, session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'control');
      requireActive(s);
      const { fields, result } = await readUpload(request, 'file', MAX_PUSH_BYTES, async (file, fieldsSoFar) => {
        // A path sent before the file is checked before any byte moves.
        if (fieldsSoFar.path !== undefined) pathOrError(fieldsSoFar.path);
        return sessions.stageUpload(s, file.bytes, MAX_PUSH_BYTES, file.truncated);
      });
      const path = pathOrError(fields.path);
      const staged = result!;
      const pushed = await sessions.deviceContent(s, { op: 'pushFile', stageId: staged.stageId, path }, TRANSFER_TIMEOUT_MS);
      await sessions.recordActivity(s, c, 'control', { action: 'pushFile', path, size: staged.size, sha256: staged.sha256, via: 'api' });
      reply.code(201);
      return { path: pushed.path, size: pushed.size, sha256: staged.sha256 };
    },
  });

  r.post('/api/sessions/:sessionId/files/pull', {
    schema: { tags, summary: 'Download a file from the device (the bytes)', params: Params, body: z.object({ path: DevicePath }) },
    handler: async (request, reply) => {
      const { c, session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'view');
      const path = pathOrError(request.body.path);
      const { size, chunks } = await sessions.pullFromDevice(s, path, TRANSFER_TIMEOUT_MS);
      await sessions.recordActivity(s, c, 'control', { action: 'pullFile', path, size, via: 'api' });
      const name = posix.basename(path).replace(/[^A-Za-z0-9._-]/g, '_') || 'file';
      reply.header('content-type', 'application/octet-stream').header('content-length', String(size)).header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store');
      return reply.send(Readable.from(chunks));
    },
  });

  r.get('/api/sessions/:sessionId/files', {
    schema: {
      tags,
      summary: 'Browse a folder of the device',
      params: Params,
      querystring: z.object({ path: z.string().max(1_024).default('/sdcard') }),
      response: { 200: z.object({ path: z.string(), entries: z.array(FileEntry) }) },
    },
    handler: async (request) => {
      const { session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'view');
      return sessions.deviceContent(s, { op: 'listFiles', path: pathOrError(request.query.path) });
    },
  });

  r.delete('/api/sessions/:sessionId/files', {
    schema: { tags, summary: 'Delete a file or folder of the device', params: Params, querystring: z.object({ path: z.string().max(1_024) }), response: { 200: z.object({ path: z.string(), deleted: z.boolean() }) } },
    handler: async (request) => {
      const { c, session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'control');
      const path = pathOrError(request.query.path);
      const result = await sessions.deviceContent(s, { op: 'deleteFile', path });
      if (!result.deleted) throw new AppError('NOT_FOUND', `Not found on the device: ${path}`);
      await sessions.recordActivity(s, c, 'control', { action: 'deleteFile', path, via: 'api' });
      return result;
    },
  });

  r.post('/api/sessions/:sessionId/folders', {
    schema: { tags, summary: 'Create a folder on the device (and its parents)', params: Params, body: z.object({ path: DevicePath }), response: { 201: z.object({ path: z.string() }) } },
    handler: async (request, reply) => {
      const { c, session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'control');
      const path = pathOrError(request.body.path);
      const result = await sessions.deviceContent(s, { op: 'makeFolder', path });
      await sessions.recordActivity(s, c, 'control', { action: 'makeFolder', path, via: 'api' });
      reply.code(201);
      return result;
    },
  });
}
