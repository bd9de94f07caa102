import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listActivities } from '#projections/df-sessions/index.js';
import { byteRange } from '#shared/blob/index.js';
import { AppError } from '#shared/errors.js';
import { videoFileKey } from '../../core/blob-keys.js';
import { signedVideoLink, videoFileName } from '../result-videos.js';
import { chaptersVtt } from '../video-chapters.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { imageResponse, Params, tags } from './schemas.js';

const noVideo = () => new AppError('VIDEO_NOT_FOUND', 'This session has no video');
/** The session had a video, which the workspace's retention removed (410 VIDEO_EXPIRED); else 404. */
const stored = (video: { expiredAt: string | null } | null): void => {
  if (!video) throw noVideo();
  if (video.expiredAt) throw new AppError('VIDEO_EXPIRED', `The video expired at ${video.expiredAt} (the workspace's video retention)`);
};

/** `/df/api/sessions/{id}/video` and its chapters: the session's recorded video, content of the session. */
export async function videoRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { platform } = opts;
  const { content } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/:sessionId/video', {
    schema: {
      tags,
      summary: "The session's video (MP4, H.264); answers Range requests with 206",
      params: Params,
      querystring: z.object({ download: z.enum(['true', 'false']).optional() }),
      response: { 200: imageResponse('The whole video', 'video/mp4'), 206: imageResponse('The asked bytes of the video', 'video/mp4') },
    },
    handler: async (request, reply) => {
      const { session } = await content(request, request.params.sessionId);
      stored(session.video);
      if (!session.video) throw noVideo();
      const key = videoFileKey(session.companyId, session.id, session.video.recordingId);
      const info = await platform.blobs.stat(key);
      if (!info) throw noVideo();
      const range = byteRange(request.headers.range, info.size);
      if (range === 'unsatisfiable') {
        throw new AppError('RANGE_NOT_SATISFIABLE', `The video has ${info.size} bytes`, { headers: { 'content-range': `bytes */${info.size}` } });
      }
      const blob = await platform.blobs.get(key, range ? { range } : {});
      if (!blob) throw noVideo();
      reply.header('content-type', 'video/mp4').header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=3600');
      if (request.query.download === 'true') reply.header('content-disposition', `attachment; filename="${videoFileName(session.id)}"`);
      if (!range) return reply.header('content-length', String(info.size)).send(blob.stream);
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
        .header('content-length', String(range.end - range.start + 1))
        .send(blob.stream);
    },
  });

  r.get('/api/sessions/:sessionId/video/link', {
    schema: {
      tags,
      summary: "A signed, expiring link to the session's video (for a <video> element or a download; it answers Range requests)",
      params: Params,
      querystring: z.object({ download: z.enum(['true', 'false']).optional() }),
      response: { 200: z.object({ url: z.string(), expiresAt: z.string() }) },
    },
    handler: async (request) => {
      const { session } = await content(request, request.params.sessionId);
      stored(session.video);
      if (!session.video) throw noVideo();
      if (!(await platform.blobs.stat(videoFileKey(session.companyId, session.id, session.video.recordingId)))) throw noVideo();
      return signedVideoLink(platform.blobs, { id: session.id, companyId: session.companyId, video: session.video }, { download: request.query.download === 'true' });
    },
  });

  r.get('/api/sessions/:sessionId/video/chapters', {
    schema: {
      tags,
      summary: "The session's timeline as WebVTT chapters of its video",
      params: Params,
      response: { 200: { description: 'WebVTT', content: { 'text/vtt': { schema: z.string() } } } },
    },
    handler: async (request, reply) => {
      const { session } = await content(request, request.params.sessionId);
      stored(session.video);
      if (!session.video) throw noVideo();
      const activities = await listActivities(platform.db, session.id, { page: 0, size: 10_000 });
      const startedAt = session.recording.startedAt ?? session.startedAt;
      reply.header('content-type', 'text/vtt; charset=utf-8');
      return chaptersVtt(activities.content, startedAt, session.video.durationMs);
    },
  });
}
