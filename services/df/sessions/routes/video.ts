import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listActivities, sessionVideos, type SessionRecord, type SessionVideo } from '#projections/df-sessions/index.js';
import { byteRange } from '#shared/blob/index.js';
import { AppError } from '#shared/errors.js';
import { idParam } from '../../http.js';
import { videoFileKey } from '../../core/blob-keys.js';
import { signedVideoLink, videoFileName } from '../result-videos.js';
import { chaptersVtt } from '../video-chapters.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { imageResponse, Params, tags } from './schemas.js';

const noVideo = (recordingId?: string) => new AppError('VIDEO_NOT_FOUND', recordingId === undefined ? 'This session has no video' : `This session has no video of the recording ${recordingId}`);

/** One recording's video as `GET .../videos` lists it. */
const VideoSchema = z
  .object({
    recordingId: z.string(),
    startedAt: z.string().describe("The recording's start: the video's first moment"),
    format: z.literal('mp4'),
    durationMs: z.number(),
    bytes: z.number(),
    storedAt: z.string(),
    expired: z.boolean().describe("The workspace's video retention removed it (at `expiredAt`): its routes answer 410 VIDEO_EXPIRED"),
    expiredAt: z.string().nullable(),
  })
  .meta({ id: 'DfSessionVideo' });
const RecordingParams = Params.extend({ recordingId: idParam });
const Download = z.object({ download: z.enum(['true', 'false']).optional() });
const vttResponse = { description: 'WebVTT', content: { 'text/vtt': { schema: z.string() } } };

/** A session's video found: the session, the video, and its place among the session's videos (from 1). */
interface Found {
  session: SessionRecord;
  video: SessionVideo;
  number: number;
  /** Asked by its recording (`/videos/{recordingId}`) rather than as the latest (`/video`). */
  byRecording: boolean;
}

/**
 * `/df/api/sessions/{id}/video` (the latest recording's video) and `/videos/{recordingId}` (each
 * recording's), with their signed links and chapters: content of the session. One handler serves both.
 */
export async function videoRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { platform } = opts;
  const { content } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The video asked for, stored: the latest without `recordingId`. None: 404 VIDEO_NOT_FOUND (also for
   * another recording's id); one the workspace's retention removed: 410 VIDEO_EXPIRED.
   */
  const find = async (request: FastifyRequest, sessionId: string, recordingId?: string): Promise<Found> => {
    const { session } = await content(request, sessionId);
    const videos = await sessionVideos(platform.db, session.id);
    const index = recordingId === undefined ? videos.length - 1 : videos.findIndex((v) => v.recordingId === recordingId);
    const video = videos[index];
    if (!video) throw noVideo(recordingId);
    if (video.expiredAt) throw new AppError('VIDEO_EXPIRED', `The video expired at ${video.expiredAt} (the workspace's video retention)`);
    return { session, video, number: index + 1, byRecording: recordingId !== undefined };
  };
  const keyOf = ({ session, video }: Found) => videoFileKey(session.companyId, session.id, video.recordingId);
  const fileName = (f: Found) => (f.byRecording ? videoFileName(f.session.id, f.number) : videoFileName(f.session.id));

  /** The video's bytes, whole or the asked range (206), offered as a file on `download`. */
  const serve = async (found: Found, request: FastifyRequest, reply: FastifyReply, download: boolean) => {
    const key = keyOf(found);
    const info = await platform.blobs.stat(key);
    if (!info) throw noVideo();
    const range = byteRange(request.headers.range, info.size);
    if (range === 'unsatisfiable') {
      throw new AppError('RANGE_NOT_SATISFIABLE', `The video has ${info.size} bytes`, { headers: { 'content-range': `bytes */${info.size}` } });
    }
    const blob = await platform.blobs.get(key, range ? { range } : {});
    if (!blob) throw noVideo();
    reply.header('content-type', 'video/mp4').header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=3600');
    if (download) reply.header('content-disposition', `attachment; filename="${fileName(found)}"`);
    if (!range) return reply.header('content-length', String(info.size)).send(blob.stream);
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(blob.stream);
  };
  /** A signed link to the video, valid for an hour. */
  const link = async (found: Found, download: boolean) => {
    if (!(await platform.blobs.stat(keyOf(found)))) throw noVideo();
    const { session, video } = found;
    return signedVideoLink(platform.blobs, { id: session.id, companyId: session.companyId, video }, { download, fileName: fileName(found) });
  };
  /** The session's timeline as WebVTT chapters of the video, placed from its recording's start. */
  const chapters = async ({ session, video }: Found, reply: FastifyReply) => {
    const activities = await listActivities(platform.db, session.id, { page: 0, size: 10_000 });
    reply.header('content-type', 'text/vtt; charset=utf-8');
    return chaptersVtt(activities.content, video.startedAt, video.durationMs);
  };

  r.get('/api/sessions/:sessionId/video', {
    schema: {
      tags,
      summary: "The session's video (its latest recording's; MP4, H.264); answers Range requests with 206",
      params: Params,
      querystring: Download,
      response: { 200: imageResponse('The whole video', 'video/mp4'), 206: imageResponse('The asked bytes of the video', 'video/mp4') },
    },
    handler: async (request, reply) => serve(await find(request, request.params.sessionId), request, reply, request.query.download === 'true'),
  });

  r.get('/api/sessions/:sessionId/video/link', {
    schema: {
      tags,
      summary: "A signed, expiring link to the session's video (its latest; for a <video> element or a download; it answers Range requests)",
      params: Params,
      querystring: Download,
      response: { 200: z.object({ url: z.string(), expiresAt: z.string() }) },
    },
    handler: async (request) => link(await find(request, request.params.sessionId), request.query.download === 'true'),
  });

  r.get('/api/sessions/:sessionId/video/chapters', {
    schema: { tags, summary: "The session's timeline as WebVTT chapters of its video (its latest)", params: Params, response: { 200: vttResponse } },
    handler: async (request, reply) => chapters(await find(request, request.params.sessionId), reply),
  });

  r.get('/api/sessions/:sessionId/videos', {
    schema: {
      tags,
      summary: "The session's videos, one per recording that produced one, oldest first (the last is what `.../video` serves)",
      params: Params,
      response: { 200: z.object({ sessionId: z.string(), videos: z.array(VideoSchema) }) },
    },
    handler: async (request) => {
      const { session } = await content(request, request.params.sessionId);
      const videos = await sessionVideos(platform.db, session.id);
      return { sessionId: session.id, videos: videos.map((v) => ({ ...v, expired: v.expiredAt !== null })) };
    },
  });

  r.get('/api/sessions/:sessionId/videos/:recordingId', {
    schema: {
      tags,
      summary: "One recording's video (MP4, H.264); answers Range requests with 206",
      params: RecordingParams,
      querystring: Download,
      response: { 200: imageResponse('The whole video', 'video/mp4'), 206: imageResponse('The asked bytes of the video', 'video/mp4') },
    },
    handler: async (request, reply) => serve(await find(request, request.params.sessionId, request.params.recordingId), request, reply, request.query.download === 'true'),
  });

  r.get('/api/sessions/:sessionId/videos/:recordingId/link', {
    schema: {
      tags,
      summary: "A signed, expiring link to one recording's video (it answers Range requests)",
      params: RecordingParams,
      querystring: Download,
      response: { 200: z.object({ url: z.string(), expiresAt: z.string() }) },
    },
    handler: async (request) => link(await find(request, request.params.sessionId, request.params.recordingId), request.query.download === 'true'),
  });

  r.get('/api/sessions/:sessionId/videos/:recordingId/chapters', {
    schema: { tags, summary: "The session's timeline as WebVTT chapters of one recording's video, placed from that recording's start", params: RecordingParams, response: { 200: vttResponse } },
    handler: async (request, reply) => chapters(await find(request, request.params.sessionId, request.params.recordingId), reply),
  });
}
