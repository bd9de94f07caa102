import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileView, findApp, findVersion, listApps, listFiles, listVersions, type AppView } from '#projections/df-files/index.js';
import type { FsBlobStore, SignedRequest } from '#shared/blob/index.js';
import { AppError } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, multi, pageOf, paging } from '../core/caller.js';
import type { FileService } from './service.js';
import { MAX_PART_BYTES, MIN_PART_BYTES } from './service.js';

const tags = ['Device testing: files and app catalog'];
const sha256 = z.string().regex(/^[0-9a-fA-F]{64}$/, 'a hex SHA-256').transform((s) => s.toLowerCase());
const name = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .refine((n) => !/[/\\\u0000-\u001f]/.test(n), 'a file name, without folders or control characters');
const contentType = z.string().trim().min(1).max(255).regex(/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/, 'a media type').default('application/octet-stream');
const size = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

const File = z
  .object({
    id: z.string(),
    name: z.string(),
    size: z.number(),
    contentType: z.string(),
    sha256: z.string().nullable(),
    status: z.enum(['pending', 'ready', 'failed']),
    kind: z.enum(['app', 'file']),
    appId: z.string().optional(),
    versionId: z.string().optional(),
    createdAt: z.string(),
    uploadedBy: z.number(),
  })
  .meta({ id: 'DfFile' });
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
    versionName: z.string(),
    versionCode: z.string(),
    minOs: z.string(),
    targetOs: z.string(),
    abis: z.array(z.string()),
    permissions: z.array(z.string()),
    fileId: z.string(),
    size: z.number(),
    sha256: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'DfAppVersion' });
const Signed = { url: z.string(), method: z.literal('PUT'), expiresAt: z.string() };

const FileParams = z.object({ fileId: idParam });
const AppParams = z.object({ appId: idParam });

export interface FileRoutesOptions {
  platform: Platform;
  files: FileService;
}

/**
 * `/df/api/files/**` (docs/modules/files.md): uploads straight to storage (signed
 * single PUT, or multipart with a signed URL per part), confirm, download by a short-lived signed URL,
 * the app catalog and its versions, deletes and the catalog backfill. Reading needs
 * `df:session:read`; uploading and deleting `df:file:manage`. `X-Api-Key` works on presigned-upload and
 * confirm when no bearer token is sent. Another company's or workspace's ids are 404.
 */
export async function fileRoutes(app: FastifyInstance, opts: FileRoutesOptions): Promise<void> {
  const { platform, files } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const behindGateway = app.prefix === '';
  const forwarded = (request: FastifyRequest, header: string) => {
    const v = request.headers[header];
    const first = (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
    return first && /^[A-Za-z0-9.:[\]-]{1,300}$/.test(first) ? first : undefined;
  };
  /** A URL the platform serves itself, made absolute with the address the client used. */
  const absolute = (request: FastifyRequest, url: string) => {
    if (/^https?:\/\//.test(url)) return url;
    const proto = (behindGateway && forwarded(request, 'x-forwarded-proto')) || request.protocol;
    const host = (behindGateway && forwarded(request, 'x-forwarded-host')) || request.host;
    return `${proto}://${host}${url}`;
  };
  const signed = (request: FastifyRequest, s: SignedRequest) => ({ url: absolute(request, s.url), method: s.method, headers: s.headers, expiresAt: s.expiresAt.toISOString() });
  const appView = async (request: FastifyRequest, a: AppView) => {
    const icon = await files.iconUrl(a.iconKey);
    return { id: a.id, platform: a.platform, identifier: a.identifier, name: a.name, latestVersionId: a.latestVersionId, versionCount: a.versionCount, iconUrl: icon ? absolute(request, icon) : null };
  };

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
    handler: async (request, reply) => {
      await files.abortMultipart(await caller(request, 'df:file:manage'), request.params.fileId);
      reply.code(204);
      return null;
    },
  });

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
    handler: async (request, reply) => {
      await files.deleteApp(await caller(request, 'df:file:manage'), request.params.appId);
      reply.code(204);
      return null;
    },
  });

  r.delete('/api/files/apps/:appId/versions/:versionId', {
    schema: { tags, summary: 'Delete a version and its file (refused while an install of it runs)', params: z.object({ appId: idParam, versionId: idParam }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      await files.deleteVersion(await caller(request, 'df:file:manage'), request.params.appId, request.params.versionId);
      reply.code(204);
      return null;
    },
  });

  r.post('/api/files/apps/backfill', {
    schema: { tags, summary: 'Build the catalog from files uploaded before: a long-running operation', response: { 202: z.object({ operationId: z.string() }) } },
    handler: async (request, reply) => {
      const operationId = await files.backfill(await caller(request, 'df:file:manage'));
      reply.code(202).header('location', `/df/api/operations/${operationId}`);
      return { operationId };
    },
  });

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
    handler: async (request, reply) => {
      await files.delete(await caller(request, 'df:file:manage'), request.params.fileId);
      reply.code(204);
      return null;
    },
  });

  if (platform.blobs.kind === 'fs' && 'serveSigned' in platform.blobs) {
    const blobs = platform.blobs as FsBlobStore;
    // The platform serves the file-system store's signed URLs itself: the signature is the credential
    // (a public path for access control), and the body streams to the store untouched by any parser.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      const serve = async (request: FastifyRequest<{ Params: { '*': string } }>, reply: import('fastify').FastifyReply) => {
        const length = request.headers['content-length'];
        const answer = await blobs.serveSigned({
          method: request.method,
          key: request.params['*'],
          query: request.query as Record<string, string>,
          contentLength: length === undefined ? undefined : Number(length),
          body: request.method === 'PUT' ? request.raw : null,
        }, {
          // A signed PUT writes only while its upload is open: never after the file was confirmed.
          beforeWrite: (key) => files.admitUploadWrite(key),
          onAltered: (key) => request.log.error({ blobKey: key }, 'stored bytes differ from the digest their download URL was signed for; not served'),
        });
        reply.code(answer.status).headers(answer.headers);
        return reply.send(answer.body ?? '');
      };
      scope.route({ method: ['GET', 'HEAD', 'PUT'], url: '/api/files/blobs/*', schema: { hide: true }, bodyLimit: Number.MAX_SAFE_INTEGER, handler: serve });
    });
  }
}
