import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Impact, TriageStatus } from '#events/df/accessibility.js';
import { findFinding, listFindings, type FindingView } from '#projections/df-accessibility/index.js';
import { found } from '#shared/errors.js';
import { caller, idParam, multi } from '../../http.js';
import { auditLookup, type AccessibilityRoutesOptions } from './lookup.js';
import { AuditParams, FindingSchema, tags } from './schemas.js';

const FindingQuery = z.object({ impact: multi(Impact), ruleId: multi(z.string().max(100)), triage: multi(TriageStatus) });
const filterFindings = (list: FindingView[], q: z.infer<typeof FindingQuery>) =>
  list.filter((f) => (!q.impact || q.impact.includes(f.impact)) && (!q.ruleId || q.ruleId.includes(f.ruleId)) && (!q.triage || q.triage.includes(f.triage.status)));

/** `/df/api/accessibility/.../findings`: a report's findings, one finding, and its triage. */
export async function findingRoutes(app: FastifyInstance, opts: AccessibilityRoutesOptions): Promise<void> {
  const { platform, accessibility } = opts;
  const { readAuditContent, auditSessionContent } = auditLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/accessibility/audits/:auditId/findings', {
    schema: { tags, summary: "A report's findings", params: AuditParams, querystring: FindingQuery, response: { 200: z.array(FindingSchema) } },
    handler: async (request) => filterFindings(await listFindings(platform.db, (await readAuditContent(request, request.params.auditId)).audit.id), request.query),
  });

  r.get('/api/accessibility/findings/:findingId', {
    schema: { tags, summary: 'One finding', params: z.object({ findingId: idParam }), response: { 200: FindingSchema } },
    handler: async (request) => {
      const c = await caller(request, 'df:session:read');
      const finding = found(await findFinding(platform.db, c, request.params.findingId), 'Finding not found');
      await auditSessionContent(request, await accessibility.get(c, finding.auditId));
      return finding;
    },
  });

  r.patch('/api/accessibility/findings/:findingId/triage', {
    schema: {
      tags,
      summary: 'Set the triage status of a finding (carried to the same fingerprint in later audits)',
      params: z.object({ findingId: idParam }),
      body: z.object({ status: TriageStatus, reason: z.string().trim().max(2_000).nullable().optional() }),
      response: { 200: FindingSchema },
    },
    handler: async (request) => {
      const c = await caller(request, 'df:accessibility:use');
      const finding = found(await findFinding(platform.db, c, request.params.findingId), 'Finding not found');
      await auditSessionContent(request, await accessibility.get(c, finding.auditId));
      return accessibility.triage(c, request.params.findingId, request.body.status, request.body.reason || null);
    },
  });
}
