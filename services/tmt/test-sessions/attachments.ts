import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ResultView } from '#projections/tmt-test-sessions/index.js';
import { requirePrincipal } from '#shared/http/principal.js';
import type { TmtDeps } from '../deps.js';

/** What a result lists beside itself: the video of the device session that ran it. */
export const ResultAttachment = z
  .object({
    kind: z.literal('device-session-video').describe("The video of the device session that ran the test (the session's latest recording)"),
    deviceSessionId: z.string(),
    name: z.string().describe('session-<id>.mp4'),
    contentType: z.literal('video/mp4'),
    size: z.number().int().describe('Bytes'),
    durationMs: z.number().int(),
    url: z.string().describe("A signed link to the session's stored video, valid for an hour, answering Range requests (the same link as GET /df/api/sessions/{id}/video/link)"),
    expiresAt: z.string(),
  })
  .meta({ id: 'V1TestResultAttachment' });
export type ResultAttachment = z.output<typeof ResultAttachment>;

export type ResultWithAttachments = ResultView & { attachments: ResultAttachment[] };

/**
 * The results as the request's reader sees them: a `deviceSessionId` that is not a device session of
 * their company (recorded before such ids were dropped at write) is shown as none, and a result whose
 * device session has a video the reader may see (the session-content rule) lists it as an attachment.
 */
export async function withAttachments(request: FastifyRequest, deviceSessions: TmtDeps['deviceSessions'], results: ResultView[]): Promise<ResultWithAttachments[]> {
  const ids = results.flatMap((r) => (r.deviceSessionId ? [r.deviceSessionId] : []));
  if (ids.length === 0) return results.map((r) => ({ ...r, attachments: [] }));
  const principal = requirePrincipal(request);
  const { known, videos } = await deviceSessions.forReader(
    { user: { userId: principal.userId, companyId: principal.companyId }, workspace: request.workspace ?? null, keys: await request.permissions() },
    ids,
  );
  return results.map((r) => {
    const deviceSessionId = r.deviceSessionId && known.has(r.deviceSessionId) ? r.deviceSessionId : null;
    const video = deviceSessionId ? videos.get(deviceSessionId) : undefined;
    return { ...r, deviceSessionId, attachments: video ? [{ kind: 'device-session-video' as const, ...video }] : [] };
  });
}
