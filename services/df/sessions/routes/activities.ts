import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listActivities } from '#projections/df-sessions/index.js';
import { multi, pageOf, paging } from '../../http.js';
import { sessionContentVisible } from '../../core/session-access.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { Activity, Metadata, Params, tags } from './schemas.js';

/** What a reader who may not see a session's content learns of an activity: its kind, who, when and how, none of what it showed or carried. */
const SUMMARY_FIELDS = ['action', 'event', 'via', 'by', 'source', 'reason', 'status'] as const;
function activitySummary<A extends { detail: Record<string, unknown> }>(activity: A): A {
  const detail: Record<string, unknown> = {};
  for (const key of SUMMARY_FIELDS) if (activity.detail[key] !== undefined) detail[key] = activity.detail[key];
  return { ...activity, detail };
}

/** `/df/api/sessions/{id}/activities`: the session's timeline. */
export async function activityRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { platform, sessions } = opts;
  const { readable, controllable } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/:sessionId/activities', {
    schema: { tags, summary: 'Activity timeline, oldest first', params: Params, querystring: z.object({ ...paging, kind: multi(z.string().max(50)) }), response: { 200: pageOf(Activity) } },
    handler: async (request) => {
      const { session } = await readable(request, request.params.sessionId);
      const page = await listActivities(platform.db, session.id, request.query, request.query.kind);
      // A reader who may not see the session's content gets what happened, not what it showed.
      return (await sessionContentVisible(platform.db, request, session.id)) ? page : { ...page, content: page.content.map(activitySummary) };
    },
  });

  r.post('/api/sessions/:sessionId/activity', {
    schema: {
      tags,
      summary: 'Record an activity (a note or a custom step) on the timeline',
      params: Params,
      body: z.object({ kind: z.enum(['note', 'custom']).default('custom'), message: z.string().min(1).max(10_000), detail: Metadata.optional() }),
      response: { 201: z.object({ id: z.string(), kind: z.string() }) },
    },
    handler: async (request, reply) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      const recorded = await sessions.recordActivity(session, c, request.body.kind, { message: request.body.message, ...(request.body.detail ?? {}) });
      reply.code(201);
      return { id: recorded.activityId, kind: recorded.kind };
    },
  });
}
