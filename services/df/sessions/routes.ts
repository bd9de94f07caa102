import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SESSION_SORT_COLUMNS,
  listActivities,
  listArtifacts,
  listBuilds,
  findSession,
  listSessions,
  sessionStats,
  sessionStorage,
  toSessionView,
  type SessionRecord,
} from '#projections/df-sessions/index.js';
import { AppError, found } from '#shared/errors.js';
import { requirePermission, requirePrincipal } from '#shared/http/principal.js';
import { ControlAction, UiNode } from '#shared/wire/index.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, multi, pageOf, paging, queryBoolean, requireSessionControl, requireSessionShare } from '../http.js';
import { sessionContent, sessionContentVisible } from '../sharing/access.js';
import type { SharingService } from '../sharing/service.js';
import { recordingFrameKey, type ScreenHub } from '../live/screen-hub.js';
import type { SessionService } from './service.js';

export const SessionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    deviceId: z.string(),
    deviceName: z.string(),
    type: z.string(),
    status: z.string(),
    startedAt: z.string(),
    readyAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    endReason: z.string().nullable(),
    buildName: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    ownerId: z.number().int(),
    workspaceId: z.number().int(),
    lastActivityAt: z.string(),
    screen: z.object({ width: z.number(), height: z.number(), scale: z.number() }).nullable(),
  })
  .meta({ id: 'DfSession' });

const Activity = z.object({ id: z.string(), kind: z.string(), detail: z.record(z.string(), z.unknown()), actorId: z.string().nullable(), at: z.string() }).meta({ id: 'DfSessionActivity' });
const Artifact = z.object({ id: z.string(), type: z.string(), name: z.string(), contentType: z.string(), size: z.number(), createdAt: z.string(), downloadUrl: z.string() }).meta({ id: 'DfSessionArtifact' });
const LogEntry = z.object({ seq: z.number(), at: z.string(), level: z.string(), source: z.string(), text: z.string() });
const Metadata = z.record(z.string(), z.unknown()).refine((m) => JSON.stringify(m).length <= 16_384, 'metadata is limited to 16 KiB of JSON');
const SessionType = z.enum(['manual', 'automation', 'debug']);
const SessionStatus = z.enum(['starting', 'active', 'ended', 'failed']);

const ListQuery = z.object({
  ...paging,
  sortBy: z.enum(Object.keys(SESSION_SORT_COLUMNS) as [keyof typeof SESSION_SORT_COLUMNS, ...(keyof typeof SESSION_SORT_COLUMNS)[]]).default('startedAt'),
  status: multi(SessionStatus),
  type: multi(SessionType),
  deviceId: multi(z.string().max(128)),
  ownerId: multi(z.string().regex(/^\d{1,10}$/)),
  buildName: z.string().max(200).optional(),
  search: z.string().trim().max(200).optional(),
});

const tags = ['Device testing: sessions'];
const Params = z.object({ sessionId: idParam });
/** What a reader who may not see a session's content learns of an activity: its kind, who, when and how, none of what it showed or carried. */
const SUMMARY_FIELDS = ['action', 'event', 'via', 'by', 'source', 'reason', 'status'] as const;
function activitySummary<A extends { detail: Record<string, unknown> }>(activity: A): A {
  const detail: Record<string, unknown> = {};
  for (const key of SUMMARY_FIELDS) if (activity.detail[key] !== undefined) detail[key] = activity.detail[key];
  return { ...activity, detail };
}

/** An answer of raw bytes (an image), as the OpenAPI document describes it. */
const imageResponse = (description: string, ...types: string[]) => ({
  description,
  content: Object.fromEntries(types.map((t) => [t, { schema: z.unknown().meta({ type: 'string', format: 'binary' }) }])),
});
const artifactUrl = (sessionId: string, artifactId: string) => `/df/api/sessions/${sessionId}/artifacts/${artifactId}/download`;

/** `/df/api/sessions`: sessions, their content, and device control. */
export async function sessionRoutes(app: FastifyInstance, opts: { platform: Platform; sessions: SessionService; hub: ScreenHub; sharing: SharingService }): Promise<void> {
  const { platform, sessions, hub, sharing } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The session for a read, 404 when it is not in the caller's workspace. */
  const readable = async (request: FastifyRequest, sessionId: string) => {
    const c = await caller(request, 'df:session:read');
    return { c, session: await sessions.get(c, sessionId) };
  };
  /** The session for a change: its owner with `df:session:create`, others with `df:session:manage`. */
  const controllable = async (request: FastifyRequest, sessionId: string) => {
    const found = await readable(request, sessionId);
    await requireSessionControl(request, found.session);
    return found;
  };
  /** The session for its content (screen, device, data): {@link sessionContent}, the one rule. */
  const content = (request: FastifyRequest, sessionId: string, need: 'view' | 'control' = 'view') => sessionContent(platform.db, request, sessionId, need);
  const refreshed = async (c: { companyId: number; workspaceId: number }, id: string) => toSessionView(await sessions.get(c, id));

  r.get('/api/sessions', {
    schema: { tags, summary: 'List sessions of the workspace', querystring: ListQuery, response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const q = request.query;
      return listSessions(
        platform.db,
        c,
        { status: q.status, type: q.type, deviceId: q.deviceId, ownerId: q.ownerId?.map(Number), buildName: q.buildName, search: q.search },
        { page: q.page, size: q.size, sortBy: q.sortBy, sortDir: q.sortDir ?? 'desc' },
      );
    },
  });

  r.get('/api/sessions/active', {
    schema: { tags, summary: "The caller's active sessions", querystring: z.object(paging), response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const q = request.query;
      return listSessions(platform.db, c, { status: ['starting', 'active'], ownerId: [c.userId] }, { page: q.page, size: q.size, sortBy: 'startedAt', sortDir: q.sortDir ?? 'desc' });
    },
  });

  r.get('/api/sessions/company/active', {
    schema: { tags, summary: 'Active sessions across the company', querystring: z.object(paging), response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:manage');
      const q = request.query;
      return listSessions(platform.db, { ...c, companyWide: true }, { status: ['starting', 'active'] }, { page: q.page, size: q.size, sortBy: 'startedAt', sortDir: q.sortDir ?? 'desc' });
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

  const Build = z.object({
    buildName: z.string(),
    sessions: z.number(),
    activeSessions: z.number(),
    failedSessions: z.number(),
    firstStartedAt: z.string().nullable(),
    lastStartedAt: z.string().nullable(),
  });
  r.get('/api/sessions/builds', {
    schema: { tags, summary: 'Builds (sessions grouped by build name)', querystring: z.object(paging), response: { 200: pageOf(Build) } },
    handler: async (request) => listBuilds(platform.db, await caller(request, 'df:session:read'), request.query),
  });

  r.get('/api/sessions/builds/:buildName/sessions', {
    schema: { tags, summary: 'Sessions of one build', params: z.object({ buildName: z.string().min(1).max(200) }), querystring: z.object(paging), response: { 200: pageOf(SessionSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const q = request.query;
      return listSessions(platform.db, c, { buildName: request.params.buildName }, { page: q.page, size: q.size, sortBy: 'startedAt', sortDir: q.sortDir ?? 'desc' });
    },
  });

  r.get('/api/sessions/:sessionId', {
    schema: { tags, summary: 'One session', params: Params, response: { 200: SessionSchema } },
    handler: async (request) => toSessionView((await readable(request, request.params.sessionId)).session),
  });

  r.post('/api/sessions', {
    schema: {
      tags,
      summary: 'Open a session on a device (answers once the device is ready)',
      body: z.object({
        deviceId: idParam,
        name: z.string().trim().min(1).max(200).optional(),
        type: SessionType.optional(),
        buildName: z.string().trim().min(1).max(200).optional(),
        metadata: Metadata.optional(),
      }),
      response: { 201: SessionSchema },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:session:create');
      const session = await sessions.create(c, request.body);
      reply.code(201);
      return session;
    },
  });

  r.delete('/api/sessions/:sessionId', {
    schema: {
      tags,
      summary: 'End a session (200 with it; again: 200, nothing changes); ?purge=true removes an ended one with its timeline and artifacts (df:session:purge, 204)',
      params: Params,
      querystring: z.object({ purge: queryBoolean }),
      response: { 200: SessionSchema, 204: z.null() },
    },
    handler: async (request, reply) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      const open = session.status === 'starting' || session.status === 'active';
      if (request.query.purge) {
        // Evidence is removed only on its own, explicit request, never as a side effect of ending.
        await requirePermission(request, 'df:session:purge');
        if (open) throw new AppError('SESSION_OPEN', 'End the session before removing it');
        await sessions.purge(session, c);
        reply.code(204);
        return null;
      }
      // Ending is idempotent: a retried or doubled DELETE ends the session once and keeps it.
      if (open) await sessions.end(session, 'user', c.userId);
      return refreshed(c, session.id);
    },
  });

  r.put('/api/sessions/:sessionId/name', {
    schema: { tags, summary: 'Rename a session', params: Params, body: z.object({ name: z.string().trim().min(1).max(200) }), response: { 200: SessionSchema } },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.update(session, c, { name: request.body.name });
      return refreshed(c, session.id);
    },
  });

  r.put('/api/sessions/:sessionId/metadata', {
    schema: { tags, summary: 'Replace the metadata of a session', params: Params, body: z.object({ metadata: Metadata }), response: { 200: SessionSchema } },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.update(session, c, { metadata: request.body.metadata });
      return refreshed(c, session.id);
    },
  });

  r.get('/api/sessions/:sessionId/notes', {
    schema: { tags, summary: 'Notes of a session', params: Params, response: { 200: z.object({ notes: z.string() }) } },
    handler: async (request) => ({ notes: (await readable(request, request.params.sessionId)).session.notes }),
  });

  r.put('/api/sessions/:sessionId/notes', {
    schema: { tags, summary: 'Write the notes of a session', params: Params, body: z.object({ notes: z.string().max(100_000) }), response: { 200: z.object({ notes: z.string() }) } },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.update(session, c, { notes: request.body.notes });
      return { notes: (await sessions.get(c, session.id)).notes };
    },
  });

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

  const RecordingStatus = z.object({
    recording: z.boolean(),
    recordingId: z.string().nullable(),
    startedAt: z.string().nullable(),
    frames: z.number(),
    truncated: z.boolean(),
    lastArtifactId: z.string().nullable(),
  });
  const recordingStatus = (session: SessionRecord) => sessions.recordingStatus(session);

  r.post('/api/sessions/:sessionId/recording/start', {
    schema: { tags, summary: 'Start recording the screen', params: Params, response: { 200: RecordingStatus } },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.startRecording(session, c);
      return recordingStatus(await sessions.get(c, session.id));
    },
  });

  r.post('/api/sessions/:sessionId/recording/stop', {
    schema: { tags, summary: 'Stop recording and keep it as an artifact', params: Params, response: { 200: RecordingStatus } },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.stopRecording(session, c.userId);
      return recordingStatus(await sessions.get(c, session.id));
    },
  });

  r.get('/api/sessions/:sessionId/recording/status', {
    schema: { tags, summary: 'Recording status', params: Params, response: { 200: RecordingStatus } },
    handler: async (request) => recordingStatus((await readable(request, request.params.sessionId)).session),
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

  r.get('/api/sessions/:sessionId/ui-tree', {
    schema: { tags, summary: 'UI element tree (the DOM with roles for a browser device)', params: Params, response: { 200: z.object({ url: z.string(), title: z.string(), root: UiNode }) } },
    handler: async (request) => {
      const { session } = await content(request, request.params.sessionId);
      return sessions.device(session, { op: 'uiTree' });
    },
  });

  r.post('/api/sessions/:sessionId/device/control', {
    schema: {
      tags,
      summary: 'Send one control action (tap, longPress, swipe, pinch, text, key, home, back, rotate, openUrl)',
      params: Params,
      body: ControlAction,
      response: { 200: z.object({ ok: z.literal(true), action: z.string(), url: z.string().optional(), orientation: z.string().optional() }) },
    },
    handler: async (request) => {
      // The owner, a session manager, or a user an invitation with `control` names (docs/modules/device-testing.md, "Sharing").
      const { session, caller: c } = await content(request, request.params.sessionId, 'control');
      const result = await sessions.control(session, c, request.body, 'api');
      return { ok: true as const, action: request.body.action, ...result };
    },
  });

  const ViewerSchema = z
    .object({ userId: z.number(), name: z.string(), access: z.enum(['view', 'control']), connectedAt: z.string(), connections: z.number() })
    .meta({ id: 'DfSessionViewer' });
  r.get('/api/sessions/:sessionId/viewers', {
    schema: { tags, summary: 'Who watches the session now (one entry per user)', params: Params, response: { 200: z.array(ViewerSchema) } },
    handler: async (request) => {
      requirePrincipal(request);
      const keys = await request.permissions();
      const ws = request.workspace;
      // Readers of the session's workspace, and the people it is shared with.
      const own = ws && keys.has('df:session:read') ? await findSession(platform.db, { companyId: ws.companyId, workspaceId: ws.id }, request.params.sessionId) : null;
      const session = own ?? (await content(request, request.params.sessionId)).session;
      return hub.viewers(session.id);
    },
  });

  r.delete('/api/sessions/:sessionId/viewers/:userId', {
    schema: {
      tags,
      summary: "Disconnect a user's viewers at once and withdraw their access to the session",
      params: z.object({ sessionId: idParam, userId: z.coerce.number().int().positive() }),
      response: { 200: z.object({ disconnected: z.number() }) },
    },
    handler: async (request) => {
      const { c, session } = await readable(request, request.params.sessionId);
      await requireSessionShare(request, session);
      return { disconnected: await sharing.disconnect(session, c, request.params.userId) };
    },
  });
}
