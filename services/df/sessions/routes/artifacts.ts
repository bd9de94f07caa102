import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listArtifacts } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import { idParam, multi } from '../../http.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { imageResponse, Params, tags } from './schemas.js';

const Artifact = z.object({ id: z.string(), type: z.string(), name: z.string(), contentType: z.string(), size: z.number(), createdAt: z.string(), downloadUrl: z.string() }).meta({ id: 'DfSessionArtifact' });
const LogEntry = z.object({ seq: z.number(), at: z.string(), level: z.string(), source: z.string(), text: z.string() });
const artifactUrl = (sessionId: string, artifactId: string) => `/df/api/sessions/${sessionId}/artifacts/${artifactId}/download`;

/** What a session keeps and shows of its device: artifacts and their bytes, the device's logs, screenshots. */
export async function artifactRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { platform, sessions } = opts;
  const { content } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/:sessionId/artifacts', {
    schema: { tags, summary: 'Artifacts of a session', params: Params, querystring: z.object({ type: multi(z.enum(['screenshot', 'log', 'recording'])) }), response: { 200: z.array(Artifact) } },
    handler: async (request) => {
      const { session } = await content(request, request.params.sessionId);
      const artifacts = await listArtifacts(platform.db, session.id, request.query.type);
      return artifacts.map(({ blobKey: _k, ...a }) => ({ ...a, downloadUrl: artifactUrl(session.id, a.id) }));
    },
  });

  r.get('/api/sessions/:sessionId/artifacts/:artifactId/download', {
    schema: { tags, summary: 'The bytes of one artifact', params: z.object({ sessionId: idParam, artifactId: idParam }) },
    handler: async (request, reply) => {
      const { session } = await content(request, request.params.sessionId);
      const artifact = (await listArtifacts(platform.db, session.id)).find((a) => a.id === request.params.artifactId);
      const blob = artifact ? await platform.blobs.get(artifact.blobKey) : null;
      if (!artifact || !blob) throw new AppError('NOT_FOUND', 'Artifact not found');
      reply.header('content-type', artifact.contentType).header('content-disposition', `attachment; filename="${artifact.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
      return reply.send(blob.stream);
    },
  });

  r.get('/api/sessions/:sessionId/logs', {
    schema: { tags, summary: 'Device logs (console, errors, network failures)', params: Params, querystring: z.object({ afterSeq: z.coerce.number().int().min(0).default(0) }), response: { 200: z.object({ entries: z.array(LogEntry), lastSeq: z.number() }) } },
    handler: async (request) => {
      const { session } = await content(request, request.params.sessionId);
      return sessions.logs(session, request.query.afterSeq);
    },
  });

  r.get('/api/sessions/:sessionId/screenshot', {
    schema: {
      tags,
      summary: 'Capture the current screen (the image itself; kept as an artifact)',
      params: Params,
      querystring: z.object({ format: z.enum(['png', 'jpeg']).optional().describe('Default: the workspace session defaults (png)') }),
      response: { 200: imageResponse('The screen, as PNG or JPEG', 'image/png', 'image/jpeg') },
    },
    handler: async (request, reply) => {
      const { caller: c, session } = await content(request, request.params.sessionId);
      const shot = await sessions.screenshot(session, c, request.query.format);
      reply.header('content-type', shot.contentType).header('x-artifact-id', shot.artifactId).header('cache-control', 'no-store');
      return reply.send(shot.data);
    },
  });
}
