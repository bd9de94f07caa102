import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listActivities, listArtifacts, sessionStorage } from '#projections/df-sessions/index.js';
import { found } from '#shared/errors.js';
import { idParam } from '../../http.js';
import { recordingFrameKey } from '../../core/screen-hub.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { Activity, imageResponse, Params, tags } from './schemas.js';

const RecordingStatus = z.object({
  recording: z.boolean(),
  recordingId: z.string().nullable(),
  startedAt: z.string().nullable(),
  frames: z.number(),
  truncated: z.boolean(),
  lastArtifactId: z.string().nullable(),
  /** The session's stored video (the last recording's), or null: `GET .../video` serves it; `expired`: the workspace's video retention removed it at `expiredAt`. */
  video: z.object({ format: z.literal('mp4'), durationMs: z.number(), bytes: z.number(), expired: z.boolean(), expiredAt: z.string().nullable() }).nullable(),
});

/** `/df/api/sessions/{id}/recording|replay|storage`: screen recordings, their replay, and the storage a session takes. */
export async function recordingRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { platform, sessions } = opts;
  const { readable, controllable, content } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The recording's status as it is now. */
  const statusNow = async (c: { companyId: number; workspaceId: number }, id: string) => sessions.recordingStatus(await sessions.get(c, id));

  r.post('/api/sessions/:sessionId/recording/start', {
    schema: { tags, summary: 'Start recording the screen', params: Params, response: { 200: RecordingStatus } },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.startRecording(session, c);
      return statusNow(c, session.id);
    },
  });

  r.post('/api/sessions/:sessionId/recording/stop', {
    schema: { tags, summary: 'Stop recording and keep it as an artifact', params: Params, response: { 200: RecordingStatus } },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.stopRecording(session, c.userId);
      return statusNow(c, session.id);
    },
  });

  r.get('/api/sessions/:sessionId/recording/status', {
    schema: { tags, summary: 'Recording status', params: Params, response: { 200: RecordingStatus } },
    handler: async (request) => sessions.recordingStatus((await readable(request, request.params.sessionId)).session),
  });

  r.get('/api/sessions/:sessionId/replay', {
    schema: {
      tags,
      summary: 'Replay: recorded frames with the activity timeline',
      params: Params,
      response: {
        200: z.object({
          sessionId: z.string(),
          recordings: z.array(z.object({ recordingId: z.string(), startedAt: z.string(), truncated: z.boolean(), frames: z.array(z.object({ index: z.number(), at: z.string(), url: z.string() })) })),
          activities: z.array(Activity),
        }),
      },
    },
    handler: async (request) => {
      const { session } = await content(request, request.params.sessionId);
      const recordings = [];
      for (const artifact of await listArtifacts(platform.db, session.id, ['recording'])) {
        const blob = await platform.blobs.get(artifact.blobKey);
        if (!blob) continue;
        const chunks: Buffer[] = [];
        for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
        const m = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { recordingId: string; startedAt: string; truncated: boolean; frames: { index: number; at: string }[] };
        recordings.push({
          recordingId: m.recordingId,
          startedAt: m.startedAt,
          truncated: m.truncated,
          frames: m.frames.map((f) => ({ index: f.index, at: f.at, url: `/df/api/sessions/${session.id}/replay/${m.recordingId}/frames/${f.index}` })),
        });
      }
      const activities = await listActivities(platform.db, session.id, { page: 0, size: 10_000 });
      return { sessionId: session.id, recordings, activities: activities.content };
    },
  });

  r.get('/api/sessions/:sessionId/replay/:recordingId/frames/:index', {
    schema: {
      tags,
      summary: 'One recorded frame (JPEG)',
      params: z.object({ sessionId: idParam, recordingId: idParam, index: z.coerce.number().int().min(0).max(1_000_000) }),
      response: { 200: imageResponse('The frame', 'image/jpeg') },
    },
    handler: async (request, reply) => {
      const { session } = await content(request, request.params.sessionId);
      const blob = found(await platform.blobs.get(recordingFrameKey(session.companyId, session.id, request.params.recordingId, request.params.index)), 'Frame not found');
      reply.header('content-type', 'image/jpeg').header('cache-control', 'private, max-age=86400');
      return reply.send(blob.stream);
    },
  });

  r.get('/api/sessions/:sessionId/storage', {
    schema: { tags, summary: 'Storage the session uses', params: Params, response: { 200: z.object({ sessionId: z.string(), bytes: z.number(), artifacts: z.number(), byType: z.record(z.string(), z.object({ artifacts: z.number(), bytes: z.number() })) }) } },
    handler: async (request) => sessionStorage(platform.db, (await readable(request, request.params.sessionId)).session.id),
  });
}
