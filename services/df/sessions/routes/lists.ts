import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_SORT_COLUMNS, listBuilds, listSessions, sessionStats } from '#projections/df-sessions/index.js';
import { caller, multi, pageOf, paging } from '../../http.js';
import type { SessionRoutesOptions } from './lookup.js';
import { SessionOutcome, SessionSchema, SessionStatus, SessionType, tags } from './schemas.js';

const ListQuery = z.object({
  ...paging,
  sortBy: z.enum(Object.keys(SESSION_SORT_COLUMNS) as [keyof typeof SESSION_SORT_COLUMNS, ...(keyof typeof SESSION_SORT_COLUMNS)[]]).default('startedAt'),
  status: multi(SessionStatus),
  type: multi(SessionType),
  outcome: multi(SessionOutcome),
  deviceId: multi(z.string().max(128)),
  ownerId: multi(z.string().regex(/^\d{1,10}$/)),
  buildName: z.string().max(200).optional(),
  search: z.string().trim().max(200).optional(),
});

/** The sessions of one build: how many, how many are open or failed, when the first and the last started. */
const Build = z.object({
  buildName: z.string(),
  sessions: z.number(),
  activeSessions: z.number(),
  failedSessions: z.number(),
  firstStartedAt: z.string().nullable(),
  lastStartedAt: z.string().nullable(),
});

/** A page of sessions, the latest started first unless the query says otherwise. */
const latestFirst = (q: { page: number; size: number; sortDir?: 'asc' | 'desc' | undefined }) => ({ page: q.page, size: q.size, sortBy: 'startedAt' as const, sortDir: q.sortDir ?? 'desc' });

/** `/df/api/sessions` lists: the workspace's sessions, the active ones, statistics and builds. */
export async function sessionListRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions', {
    schema: { tags, summary: 'List sessions of the workspace', querystring: ListQuery, response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const q = request.query;
      return listSessions(
        platform.db,
        c,
        { status: q.status, type: q.type, deviceId: q.deviceId, ownerId: q.ownerId?.map(Number), buildName: q.buildName, search: q.search, outcome: q.outcome },
        { ...latestFirst(q), sortBy: q.sortBy },
      );
    },
  });

  r.get('/api/sessions/active', {
    schema: { tags, summary: "The caller's active sessions", querystring: z.object(paging), response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      return listSessions(platform.db, c, { status: ['starting', 'active'], ownerId: [c.userId] }, latestFirst(request.query));
    },
  });

  r.get('/api/sessions/company/active', {
    schema: { tags, summary: 'Active sessions across the company', querystring: z.object(paging), response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:manage');
      return listSessions(platform.db, { ...c, companyWide: true }, { status: ['starting', 'active'] }, latestFirst(request.query));
    },
  });

  r.get('/api/sessions/stats', {
    schema: {
      tags,
      summary: 'Session statistics of the workspace',
      response: {
        200: z.object({
          total: z.number(),
          active: z.number(),
          byStatus: z.record(z.string(), z.number()),
          byType: z.record(z.string(), z.number()),
          totalDurationSeconds: z.number(),
          averageDurationSeconds: z.number(),
        }),
      },
    },
    handler: async (request) => sessionStats(platform.db, await caller(request, 'df:session:read')),
  });

  r.get('/api/sessions/builds', {
    schema: { tags, summary: 'Builds (sessions grouped by build name)', querystring: z.object(paging), response: { 200: pageOf(Build) } },
    handler: async (request) => listBuilds(platform.db, await caller(request, 'df:session:read'), request.query),
  });

  r.get('/api/sessions/builds/:buildName/sessions', {
    schema: { tags, summary: 'Sessions of one build', params: z.object({ buildName: z.string().min(1).max(200) }), querystring: z.object(paging), response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      return listSessions(platform.db, c, { buildName: request.params.buildName }, latestFirst(request.query));
    },
  });
}
