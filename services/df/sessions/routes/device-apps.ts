import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { validationError } from '#shared/http/params.js';
import { AppHelper, PackageName } from '#shared/wire/index.js';
import { idParam } from '../../http.js';
import { contentTags as tags, deviceSession, MAX_APP_BYTES, readUpload, requireActive, TRANSFER_TIMEOUT_MS, type DeviceContentRoutesOptions } from './device-content.js';
import { Params } from './schemas.js';

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** A catalogued build to install: one of a version or a file of the catalog. */
const CatalogInstall = z
  .object({ versionId: idParam.optional(), fileId: idParam.optional() })
  .strict()
  .refine((b) => (b.versionId === undefined) !== (b.fileId === undefined), { message: 'versionId or fileId (one of them), or a multipart "file"', path: ['versionId'] });

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

/** `/df/api/sessions/{id}/apps|app-helpers`: the apps of the session's device (in a scope where multipart bodies are read). */
export async function deviceAppRoutes(app: FastifyInstance, opts: DeviceContentRoutesOptions): Promise<void> {
  // Made at registration, as it always was: the OpenAPI document lists named schemas in the order they are made.
  const App = z.object({ packageName: z.string(), system: z.boolean() }).meta({ id: 'DfDeviceApp' });
  const { sessions } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/:sessionId/apps', {
    schema: {
      tags,
      summary: 'Apps installed on the device',
      params: Params,
      querystring: z.object({ thirdPartyOnly: z.enum(['true', 'false']).optional() }),
      response: { 200: z.object({ apps: z.array(App) }) },
    },
    handler: async (request) => {
      const { session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'view');
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
      const { c, session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'control');
      if (!request.isMultipart()) {
        const parsed = CatalogInstall.safeParse(request.body ?? {});
        if (!parsed.success) throw validationError(parsed.error);
        const operationId = await opts.installFromCatalog(c, s, parsed.data);
        reply.code(202).header('location', `/df/api/operations/${operationId}`);
        return { operationId };
      }
      requireActive(s);
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
      const { c, session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'control');
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
      const { session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'view');
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
      const { c, session: s } = await deviceSession(opts.db, request, request.params.sessionId, 'control');
      const { helper, packageName } = request.body;
      if ((helper === 'app-settings' || helper === 'launch-app') && !packageName) {
        throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: 'packageName', message: `Required for ${helper}` }] });
      }
      const result = await sessions.deviceContent(s, { op: 'openHelper', helper, ...(packageName ? { packageName } : {}) });
      await sessions.recordActivity(s, c, 'navigation', { action: 'openHelper', helper, ...(packageName ? { packageName } : {}), via: 'api' });
      return result;
    },
  });
}
