import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toSessionView } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import { timed } from '#shared/request-context.js';
import { requirePermission } from '#shared/http/principal.js';
import { caller, idParam, queryBoolean } from '../../http.js';
import { sessionLookup, type SessionRoutesOptions } from './lookup.js';
import { Metadata, Params, SessionOutcome, SessionSchema, SessionType, tags } from './schemas.js';

/** `/df/api/sessions/{id}`: one session: open, read, end or remove, rename, metadata and notes. */
export async function singleSessionRoutes(app: FastifyInstance, opts: SessionRoutesOptions): Promise<void> {
  const { sessions } = opts;
  const { readable, controllable, refreshed } = sessionLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

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
        record: z.boolean().optional().describe("Record the screen from the start; absent: the workspace's session defaults (automation sessions record unless recordAutomation is off)"),
      }),
      response: { 201: SessionSchema },
    },
    handler: async (request, reply) => {
      const c = await timed('caller', () => caller(request, 'df:session:create'));
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

  r.put('/api/sessions/:sessionId/outcome', {
    schema: {
      tags,
      summary: "Set the session's test outcome (its runner's verdict; also after the session ended)",
      params: Params,
      body: z.object({ outcome: SessionOutcome, reason: z.string().trim().min(1).max(2_000).optional() }),
      response: { 200: SessionSchema },
    },
    handler: async (request) => {
      const { c, session } = await controllable(request, request.params.sessionId);
      await sessions.update(session, c, { outcome: { outcome: request.body.outcome, reason: request.body.reason ?? null } });
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
}
