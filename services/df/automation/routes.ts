import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Platform } from '../../platform.js';
import { caller, idParam, multi, pageOf, paging, requireSessionControl } from '../http.js';
import type { SessionPort } from '../core/session-port.js';
import { sessionContent } from '../core/session-access.js';
import { activityDetail, allTestEvents, listTestEvents, Progress, progressOf, TEST_EVENT_TYPES, TestEventsBody, TestEventView } from './test-events.js';

const tags = ['Device testing: automation'];
const Params = z.object({ sessionId: idParam });

/**
 * `/df/api/automation/sessions/{sessionId}/test-events`: test runners report suites and tests of a
 * session; each event is a timeline entry of the session (kind `custom`, `source: "automation"`), so
 * it shows with the session's other activity and in its replay. Reporting needs the session to be
 * open and the caller to drive it (its owner, or `df:session:manage`). The events themselves (names,
 * the runner's error text, metadata) are the session's content: reading them follows the content
 * rule (owner, invitees, reviewers and managers; any other reader of the workspace is 403
 * `SESSION_CONTENT_FORBIDDEN`). The progress counts only need `df:session:read`. Another tenant's
 * session is 404.
 */
export async function automationRoutes(app: FastifyInstance, opts: { platform: Platform; sessions: SessionPort }): Promise<void> {
  const { platform, sessions } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/automation/sessions/:sessionId/test-events', {
    schema: {
      tags,
      summary: 'Report one test event or a batch (at most 500)',
      params: Params,
      body: TestEventsBody,
      response: { 201: z.object({ accepted: z.number().int(), ids: z.array(z.string()) }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:read');
      const session = await sessions.get(c, request.params.sessionId);
      await requireSessionControl(request, session);
      const events = Array.isArray(request.body) ? request.body : [request.body];
      const now = platform.now();
      const ids = await sessions.recordActivities(session, c, events.map((e) => ({ kind: 'custom' as const, detail: activityDetail(e, now) })));
      reply.code(201);
      return { accepted: ids.length, ids };
    },
  });

  r.get('/api/automation/sessions/:sessionId/test-events', {
    schema: {
      tags,
      summary: "Reported test events in reporting order (the session's content: names, errors and metadata)",
      params: Params,
      querystring: z.object({ ...paging, size: z.coerce.number().int().min(1).max(500).default(100), type: multi(z.enum(TEST_EVENT_TYPES)) }),
      response: { 200: pageOf(TestEventView) },
    },
    handler: async (request) => {
      const { session } = await sessionContent(platform.db, request, request.params.sessionId);
      return listTestEvents(platform.db, session.id, request.query, request.query.type);
    },
  });

  r.get('/api/automation/sessions/:sessionId/test-events/progress', {
    schema: { tags, summary: 'Execution progress, counted by test (see the module documentation)', params: Params, response: { 200: Progress } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const session = await sessions.get(c, request.params.sessionId);
      return progressOf(await allTestEvents(platform.db, session.id));
    },
  });
}
