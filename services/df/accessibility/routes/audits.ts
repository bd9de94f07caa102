import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAudits, listFindings, type FindingView } from '#projections/df-accessibility/index.js';
import { toPage } from '#shared/paging.js';
import { caller, idParam, pageOf, paging } from '../../http.js';
import { auditLookup, type AccessibilityRoutesOptions } from './lookup.js';
import { AuditParams, AuditSchema, FindingSchema, ListQuery, tags } from './schemas.js';

/** Findings by fingerprint, one each. */
const unique = (list: FindingView[]) => [...new Map(list.map((f) => [f.fingerprint, f] as const)).values()];

/** `/df/api/accessibility/audits`: the reports: list, create, read, compare. */
export async function auditRoutes(app: FastifyInstance, opts: AccessibilityRoutesOptions): Promise<void> {
  const { platform, sessions, accessibility } = opts;
  const { readAudit, readAuditContent, auditSessionContent } = auditLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/accessibility/audits', {
    schema: { tags, summary: 'List accessibility reports (newest first, at most 1000)', querystring: ListQuery, response: { 200: z.array(AuditSchema) } },
    handler: async (request) => (await listAudits(platform.db, await caller(request, 'df:session:read'), request.query)).content,
  });

  r.get('/api/accessibility/audits/page', {
    schema: { tags, summary: 'List accessibility reports, paged', querystring: ListQuery.extend(paging), response: { 200: pageOf(AuditSchema) } },
    handler: async (request) => {
      const q = request.query;
      const { content, total } = await listAudits(platform.db, await caller(request, 'df:session:read'), q, { page: q.page, size: q.size, sortDir: q.sortDir ?? 'desc' });
      return toPage(content, total, q.page, q.size);
    },
  });

  r.post('/api/accessibility/audits', {
    schema: {
      tags,
      summary: 'Create a report: on a session (`sessionId`, scanned with .../scans), or of a list of `urls` run on a free browser device in the background',
      body: z.union([
        z.object({ sessionId: idParam, name: z.string().trim().min(1).max(200).optional() }).strict(),
        z
          .object({
            urls: z.array(z.url({ protocol: /^https?$/ }).max(8_000)).min(1).max(50),
            deviceId: idParam.optional(),
            name: z.string().trim().min(1).max(200).optional(),
          })
          .strict(),
      ]),
      response: { 201: AuditSchema },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:accessibility:use');
      const body = request.body;
      if ('urls' in body) return reply.code(201).send(await accessibility.startForUrls(c, body));
      const session = await sessions.get(c, body.sessionId);
      return reply.code(201).send(await accessibility.start(c, session, body.name));
    },
  });

  r.get('/api/accessibility/audits/:auditId', {
    schema: { tags, summary: 'One report', params: AuditParams, response: { 200: AuditSchema } },
    handler: async (request) => (await readAudit(request, request.params.auditId)).audit,
  });

  r.get('/api/accessibility/audits/:auditId/compare', {
    schema: {
      tags,
      summary: 'Compare a report with an earlier one (`with`) by fingerprint: new here, fixed since, unchanged',
      params: AuditParams,
      querystring: z.object({ with: idParam }),
      response: { 200: z.object({ auditId: z.string(), with: z.string(), new: z.array(FindingSchema), fixed: z.array(FindingSchema), unchanged: z.array(FindingSchema) }) },
    },
    handler: async (request) => {
      const { c, audit } = await readAuditContent(request, request.params.auditId);
      const other = await accessibility.get(c, request.query.with);
      await auditSessionContent(request, other);
      const mine = unique(await listFindings(platform.db, audit.id));
      const theirs = unique(await listFindings(platform.db, other.id));
      const minePrints = new Set(mine.map((f) => f.fingerprint));
      const theirPrints = new Set(theirs.map((f) => f.fingerprint));
      return {
        auditId: audit.id,
        with: other.id,
        new: mine.filter((f) => !theirPrints.has(f.fingerprint)),
        fixed: theirs.filter((f) => !minePrints.has(f.fingerprint)),
        unchanged: mine.filter((f) => theirPrints.has(f.fingerprint)),
      };
    },
  });
}
