import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BuildFacts } from '#events/df/files.js';
import { findApp, findVersion, listApps, listVersions, type AppView } from '#projections/df-files/index.js';
import { AppError } from '#shared/errors.js';
import { caller, idParam, noContent, pageOf, paging } from '../../http.js';
import { absoluteUrls, tags, type FileRoutesOptions } from './schemas.js';

const App = z
  .object({
    id: z.string(),
    platform: z.enum(['android', 'ios']),
    identifier: z.string().describe('Android package name or iOS bundle id'),
    name: z.string(),
    latestVersionId: z.string().nullable(),
    versionCount: z.number(),
    iconUrl: z.string().nullable().describe('A short-lived signed URL of the icon'),
  })
  .meta({ id: 'DfApp' });
const Version = z
  .object({
    id: z.string(),
    appId: z.string(),
    ...BuildFacts,
    fileId: z.string(),
    size: z.number(),
    sha256: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'DfAppVersion' });
const AppParams = z.object({ appId: idParam });

/** `/df/api/files/apps|app-versions`: the app catalog, its versions, their deletes and the backfill. */
export async function catalogRoutes(app: FastifyInstance, opts: FileRoutesOptions): Promise<void> {
  const { platform, files } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { absolute } = absoluteUrls(app);
  const appView = async (request: FastifyRequest, a: AppView) => {
    const icon = await files.iconUrl(a.iconKey);
    return { id: a.id, platform: a.platform, identifier: a.identifier, name: a.name, latestVersionId: a.latestVersionId, versionCount: a.versionCount, iconUrl: icon ? absolute(request, icon) : null };
  };

  r.get('/api/files/apps', {
    schema: {
      tags,
      summary: "The workspace's app catalog, by name",
      querystring: z.object({ ...paging, platform: z.enum(['android', 'ios']).optional(), search: z.string().max(200).optional() }),
      response: { 200: pageOf(App) },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const q = request.query;
      const result = await listApps(platform.db, c, { page: q.page, size: q.size, platform: q.platform, search: q.search });
      return { ...result, content: await Promise.all(result.content.map((a) => appView(request, a))) };
    },
  });

  r.get('/api/files/apps/:appId/versions', {
    schema: { tags, summary: 'Versions of an app, newest first', params: AppParams, querystring: z.object(paging), response: { 200: pageOf(Version) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      if (!(await findApp(platform.db, c, request.params.appId))) throw new AppError('NOT_FOUND', 'App not found');
      return listVersions(platform.db, request.params.appId, request.query);
    },
  });

  r.get('/api/files/app-versions/:versionId', {
    schema: { tags, summary: 'One app version', params: z.object({ versionId: idParam }), response: { 200: Version } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const version = await findVersion(platform.db, c, request.params.versionId);
      if (!version) throw new AppError('NOT_FOUND', 'App version not found');
      return version;
    },
  });

  r.delete('/api/files/apps/:appId', {
    schema: { tags, summary: 'Delete an app, its versions and their files (refused while an install of one runs)', params: AppParams, response: { 204: z.null() } },
    handler: async (request, reply) => noContent(reply, files.deleteApp(await caller(request, 'df:file:manage'), request.params.appId)),
  });

  r.delete('/api/files/apps/:appId/versions/:versionId', {
    schema: { tags, summary: 'Delete a version and its file (refused while an install of it runs)', params: z.object({ appId: idParam, versionId: idParam }), response: { 204: z.null() } },
    handler: async (request, reply) => noContent(reply, files.deleteVersion(await caller(request, 'df:file:manage'), request.params.appId, request.params.versionId)),
  });

  r.post('/api/files/apps/backfill', {
    schema: { tags, summary: 'Build the catalog from files uploaded before: a long-running operation', response: { 202: z.object({ operationId: z.string() }) } },
    handler: async (request, reply) => {
      const operationId = await files.backfill(await caller(request, 'df:file:manage'));
      reply.code(202).header('location', `/df/api/operations/${operationId}`);
      return { operationId };
    },
  });
}
