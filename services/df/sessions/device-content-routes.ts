import { posix } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { AppHelper, DevicePath, PackageName } from '#shared/wire/messages.js';
import { idParam } from '../core/caller.js';
import { requirePermission } from '#shared/http/principal.js';
import type { Sql } from '#shared/db/index.js';
import { sessionContent } from '../core/session-access.js';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { validationError } from '#shared/http/params.js';
import type { Caller } from '../core/caller.js';
import type { SessionService } from './service.js';

/** Largest app (APK) accepted. */
export const MAX_APP_BYTES = 512 * 1024 * 1024;
/** Largest file pushed to a device. */
export const MAX_PUSH_BYTES = 512 * 1024 * 1024;
/** Installing and moving big files take longer than a tap. */
const TRANSFER_TIMEOUT_MS = 180_000;

const tags = ['Device testing: apps and files'];
const Params = z.object({ sessionId: idParam });
const App = z.object({ packageName: z.string(), system: z.boolean() }).meta({ id: 'DfDeviceApp' });
const FileEntry = z
  .object({ name: z.string(), type: z.enum(['file', 'directory', 'other']), size: z.number(), mode: z.number(), modifiedAt: z.string().nullable() })
  .meta({ id: 'DfDeviceFile' });
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** A catalogued build to install: one of a version or a file of the catalog. */
const CatalogInstall = z
  .object({ versionId: idParam.optional(), fileId: idParam.optional() })
  .strict()
  .refine((b) => (b.versionId === undefined) !== (b.fileId === undefined), { message: 'versionId or fileId (one of them), or a multipart "file"', path: ['versionId'] });

/** A multipart body: its text fields and the bytes of its one file part, streamed to `consume`. */
async function readUpload<T>(
  request: FastifyRequest,
  fileField: string,
  maxBytes: number,
  consume: (file: { filename: string; bytes: AsyncIterable<Buffer>; truncated: () => boolean }, fields: Record<string, string>) => Promise<T>,
): Promise<{ fields: Record<string, string>; result: T | null }> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as multipart/form-data with a "${fileField}" part`);
  const fields: Record<string, string> = {};
  let result: T | null = null;
  let seen = false;
  for await (const part of request.parts({ limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 8 * 1024 } })) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== fileField || seen) {
      part.file.resume();
      throw new AppError('BAD_REQUEST', `Unexpected file part "${part.fieldname}"; send the file as "${fileField}"`);
    }
    seen = true;
    const stream = part.file;
    result = await consume({ filename: part.filename, bytes: stream as AsyncIterable<Buffer>, truncated: () => stream.truncated }, fields);
  }
  if (!seen) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: fileField, message: 'Required' }] });
  return { fields, result };
}

/** The bytes of an upload, refused with 415 unless they start like a zip (an APK is one). */
async function* zipOnly(bytes: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head = Buffer.alloc(0);
  let checked = false;
  for await (const chunk of bytes) {
    if (!checked) {
      head = Buffer.concat([head, chunk]);
      if (head.length < ZIP_SIGNATURE.length) continue;
      if (!head.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The app must be an APK file');
      checked = true;
      yield head;
      continue;
    }
    yield chunk;
  }
  if (!checked) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The app must be an APK file');
}

function pathOrError(raw: unknown, field = 'path'): string {
  const parsed = DevicePath.safeParse(raw);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: parsed.error.issues.map((i) => ({ path: field, message: i.message })) });
  return parsed.data.length > 1 ? parsed.data.replace(/\/+$/, '') : parsed.data;
}

/**
 * `/df/api/sessions/{id}/apps|app-helpers|files|folders`: apps and files of the session's device,
 * content of the session (docs/modules/device-testing.md, "Sharing"). Reading them (the apps, their
 * presence, a folder, a file's bytes) needs access to the session's content; changing them needs
 * control of the session and `df:app:install`. Every change and every file read is an activity on
 * the session's timeline. Devices without apps or files (browser devices) answer 409
 * `DEVICE_UNSUPPORTED`.
 */
export async function deviceContentRoutes(
  app: FastifyInstance,
  opts: { db: Sql; sessions: SessionService; installFromCatalog: (caller: Caller, session: SessionRecord, what: { versionId?: string | undefined; fileId?: string | undefined }) => Promise<string> },
): Promise<void> {
  const { sessions } = opts;

  /** The session's device to read (`view`) or to change (`control`, with `df:app:install`). */
  const session = async (request: FastifyRequest, sessionId: string, need: 'view' | 'control') => {
    const found = await sessionContent(opts.db, request, sessionId, need);
    if (need === 'control') await requirePermission(request, 'df:app:install');
    return { c: found.caller, session: found.session };
  };

  await app.register(async (scope) => {
    await scope.register((await import('@fastify/multipart')).default, { limits: { fileSize: Math.max(MAX_APP_BYTES, MAX_PUSH_BYTES) + 1, files: 1, fields: 10 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get('/api/sessions/:sessionId/apps', {
      schema: {
        tags,
        summary: 'Apps installed on the device',
        params: Params,
        querystring: z.object({ thirdPartyOnly: z.enum(['true', 'false']).optional() }),
        response: { 200: z.object({ apps: z.array(App) }) },
      },
      handler: async (request) => {
        const { session: s } = await session(request, request.params.sessionId, 'view');
        return sessions.deviceContent(s, { op: 'apps', thirdPartyOnly: request.query.thirdPartyOnly === 'true' });
      },
    });

    r.post('/api/sessions/:sessionId/apps/install', {
      schema: {
        tags,
        summary: `Install an app: multipart/form-data with a "file" part (an APK, at most ${MAX_APP_BYTES / 1024 / 1024} MiB) → 201; or JSON {versionId} or {fileId} of the catalog → 202 {operationId} (poll the Location). It is uninstalled when the session ends`,
        params: Params,
        response: { 201: z.object({ packageNames: z.array(z.string()), size: z.number(), sha256: z.string() }), 202: z.object({ operationId: z.string() }) },
      },
      handler: async (request, reply) => {
        const { c, session: s } = await session(request, request.params.sessionId, 'control');
        if (!request.isMultipart()) {
          const parsed = CatalogInstall.safeParse(request.body ?? {});
          if (!parsed.success) throw validationError(parsed.error);
          const operationId = await opts.installFromCatalog(c, s, parsed.data);
          reply.code(202).header('location', `/df/api/operations/${operationId}`);
          return { operationId };
        }
        if (s.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${s.status}`);
        const { result } = await readUpload(request, 'file', MAX_APP_BYTES, async (file) => {
          const staged = await sessions.stageUpload(s, zipOnly(file.bytes), MAX_APP_BYTES, file.truncated);
          const installed = await sessions.deviceContent(s, { op: 'installApp', stageId: staged.stageId }, TRANSFER_TIMEOUT_MS);
          return { ...installed, size: staged.size, sha256: staged.sha256, fileName: file.filename };
        });
        const done = result!;
        await sessions.recordActivity(s, c, 'control', { action: 'installApp', fileName: done.fileName.slice(0, 255), size: done.size, sha256: done.sha256, packageNames: done.packageNames, via: 'api' });
        reply.code(201);
        return { packageNames: done.packageNames, size: done.size, sha256: done.sha256 };
      },
    });

    r.post('/api/sessions/:sessionId/apps/uninstall', {
      schema: { tags, summary: 'Uninstall an app', params: Params, body: z.object({ packageName: PackageName }), response: { 200: z.object({ packageName: z.string(), uninstalled: z.boolean() }) } },
      handler: async (request) => {
        const { c, session: s } = await session(request, request.params.sessionId, 'control');
        const result = await sessions.deviceContent(s, { op: 'uninstallApp', packageName: request.body.packageName }, TRANSFER_TIMEOUT_MS);
        if (!result.uninstalled) throw new AppError('NOT_FOUND', `${request.body.packageName} is not installed`);
        await sessions.recordActivity(s, c, 'control', { action: 'uninstallApp', packageName: result.packageName, via: 'api' });
        return result;
      },
    });

    r.post('/api/sessions/:sessionId/apps/presence', {
      schema: {
        tags,
        summary: 'Whether each app is installed',
        params: Params,
        body: z.object({ packageNames: z.array(PackageName).min(1).max(100) }),
        response: { 200: z.object({ presence: z.record(z.string(), z.boolean()) }) },
      },
      handler: async (request) => {
        const { session: s } = await session(request, request.params.sessionId, 'view');
        return sessions.deviceContent(s, { op: 'appPresence', packageNames: request.body.packageNames });
      },
    });

    r.post('/api/sessions/:sessionId/app-helpers/open', {
      schema: {
        tags,
        summary: 'Open a helper: the app store (optionally at an app), the settings, an app’s settings, developer options, Wi-Fi settings, or launch an app',
        params: Params,
        body: z.object({ helper: AppHelper, packageName: PackageName.optional() }),
        response: { 200: z.object({ helper: z.string(), packageName: z.string().optional() }) },
      },
      handler: async (request) => {
        const { c, session: s } = await session(request, request.params.sessionId, 'control');
        const { helper, packageName } = request.body;
        if ((helper === 'app-settings' || helper === 'launch-app') && !packageName) {
          throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: 'packageName', message: `Required for ${helper}` }] });
        }
        const result = await sessions.deviceContent(s, { op: 'openHelper', helper, ...(packageName ? { packageName } : {}) });
        await sessions.recordActivity(s, c, 'navigation', { action: 'openHelper', helper, ...(packageName ? { packageName } : {}), via: 'api' });
        return result;
      },
    });

    r.post('/api/sessions/:sessionId/files/push', {
      schema: {
        tags,
        summary: `Push a file: multipart/form-data with a "path" field (absolute, on the device) and a "file" part (at most ${MAX_PUSH_BYTES / 1024 / 1024} MiB)`,
        params: Params,
        response: { 201: z.object({ path: z.string(), size: z.number(), sha256: z.string() }) },
      },
      handler: async (request, reply) => {
        const { c, session: s } = await session(request, request.params.sessionId, 'control');
        if (s.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${s.status}`);
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
        const { c, session: s } = await session(request, request.params.sessionId, 'view');
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
        const { session: s } = await session(request, request.params.sessionId, 'view');
        return sessions.deviceContent(s, { op: 'listFiles', path: pathOrError(request.query.path) });
      },
    });

    r.delete('/api/sessions/:sessionId/files', {
      schema: { tags, summary: 'Delete a file or folder of the device', params: Params, querystring: z.object({ path: z.string().max(1_024) }), response: { 200: z.object({ path: z.string(), deleted: z.boolean() }) } },
      handler: async (request) => {
        const { c, session: s } = await session(request, request.params.sessionId, 'control');
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
        const { c, session: s } = await session(request, request.params.sessionId, 'control');
        const path = pathOrError(request.body.path);
        const result = await sessions.deviceContent(s, { op: 'makeFolder', path });
        await sessions.recordActivity(s, c, 'control', { action: 'makeFolder', path, via: 'api' });
        reply.code(201);
        return result;
      },
    });
  });
}
