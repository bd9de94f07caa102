import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAudits } from '#projections/df-accessibility/index.js';
import { found } from '#shared/errors.js';
import { caller, idParam } from '../../http.js';
import { sessionContent } from '../../core/session-access.js';
import type { AccessibilityRoutesOptions } from './lookup.js';
import { AuditSchema, ScanWithFindings, tags } from './schemas.js';

const SessionAuditParams = z.object({ sessionId: idParam, auditId: idParam });

/** `/df/api/sessions/{id}/accessibility/audits`: a session's reports, scanning its screen, closing a report. */
export async function sessionAuditRoutes(app: FastifyInstance, opts: AccessibilityRoutesOptions): Promise<void> {
  const { platform, sessions, accessibility } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/:sessionId/accessibility/audits', {
    schema: { tags, summary: 'Reports of a session', params: z.object({ sessionId: idParam }), response: { 200: z.array(AuditSchema) } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const session = await sessions.get(c, request.params.sessionId);
      return (await listAudits(platform.db, c, { sessionId: [session.id] })).content;
    },
  });

  r.post('/api/sessions/:sessionId/accessibility/audits', {
    schema: { tags, summary: 'Start a report on the session', params: z.object({ sessionId: idParam }), body: z.object({ name: z.string().trim().min(1).max(200).optional() }).optional(), response: { 201: AuditSchema } },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:accessibility:use');
      const session = await sessions.get(c, request.params.sessionId);
      return reply.code(201).send(await accessibility.start(c, session, request.body?.name));
    },
  });

  r.post('/api/sessions/:sessionId/accessibility/audits/:auditId/scans', {
    schema: { tags, summary: "Scan the session's current screen", params: SessionAuditParams, response: { 201: ScanWithFindings } },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:accessibility:use');
      // A scan captures the session's screen: its content.
      const { session } = await sessionContent(platform.db, request, request.params.sessionId);
      const audit = await accessibility.get(c, request.params.auditId);
      return reply.code(201).send(await accessibility.scan(c, session, audit));
    },
  });

  r.post('/api/sessions/:sessionId/accessibility/audits/:auditId/complete', {
    schema: { tags, summary: 'Close the report', params: SessionAuditParams, response: { 200: AuditSchema } },
    handler: async (request) => {
      const c = await caller(request, 'df:accessibility:use');
      const session = await sessions.get(c, request.params.sessionId);
      const audit = await accessibility.get(c, request.params.auditId);
      found(audit.sessionId === session.id ? audit : null, 'Audit not found');
      return accessibility.complete(c, audit);
    },
  });
}
