import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ExportFormat, Impact, TriageStatus } from '#events/df/accessibility.js';
import { findExport, findFinding, findScan, listAudits, listFindings, listScans, type FindingView } from '#projections/df-accessibility/index.js';
import { found } from '#shared/errors.js';
import { toPage } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, multi, pageOf, paging } from '../core/caller.js';
import { sessionContent } from '../core/session-access.js';
import type { SessionPort } from '../core/session-port.js';
import type { AccessibilityService } from './service.js';
import { EXPORT_TYPES } from './exports.js';

const Bounds = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const Counts = z.object({ critical: z.number(), serious: z.number(), moderate: z.number(), minor: z.number() });
export const AuditSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sessionId: z.string().nullable(),
    deviceId: z.string(),
    platform: z.string(),
    status: z.enum(['in_progress', 'completed']),
    scanCount: z.number().int(),
    findingCounts: Counts,
    createdBy: z.number().int(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'DfAccessibilityAudit' });
export const FindingSchema = z
  .object({
    id: z.string(),
    auditId: z.string(),
    scanId: z.string(),
    ruleId: z.string(),
    impact: Impact,
    wcag: z.array(z.string()),
    description: z.string(),
    helpUrl: z.string(),
    element: z.object({ selector: z.string(), text: z.string(), html: z.string().nullable(), bounds: Bounds }),
    fingerprint: z.string(),
    triage: z.object({ status: TriageStatus, by: z.number().int().nullable(), reason: z.string().nullable(), at: z.string().nullable() }),
    createdAt: z.string(),
  })
  .meta({ id: 'DfAccessibilityFinding' });
const ScanSchema = z
  .object({
    id: z.string(),
    auditId: z.string(),
    engine: z.string(),
    url: z.string(),
    title: z.string(),
    scope: z.string(),
    findingCount: z.number().int(),
    screen: z.object({ width: z.number(), height: z.number() }).nullable(),
    hasScreenshot: z.boolean(),
    hasTree: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'DfAccessibilityScan' });
const ScanWithFindings = ScanSchema.extend({ findings: z.array(FindingSchema) });
const ExportSchema = z
  .object({
    id: z.string(),
    auditId: z.string(),
    format: ExportFormat,
    state: z.enum(['running', 'succeeded', 'failed']),
    size: z.number().nullable(),
    error: z.string().nullable(),
    url: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'DfAccessibilityExport' });

const ListQuery = z.object({
  sessionId: multi(idParam),
  deviceId: multi(idParam),
  platform: multi(z.string().max(20)),
  status: multi(z.enum(['in_progress', 'completed'])),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
const FindingQuery = z.object({ impact: multi(Impact), ruleId: multi(z.string().max(100)), triage: multi(TriageStatus) });
const AuditParams = z.object({ auditId: idParam });
const SessionAuditParams = z.object({ sessionId: idParam, auditId: idParam });
const tags = ['Device testing: accessibility'];
const downloadUrl = (auditId: string, exportId: string) => `/df/api/accessibility/audits/${auditId}/exports/${exportId}/download`;

/** `/df/api/accessibility` and `/df/api/sessions/{id}/accessibility`: audits, scans, findings, triage, compare, exports. */
export async function accessibilityRoutes(app: FastifyInstance, opts: { platform: Platform; sessions: SessionPort; accessibility: AccessibilityService }): Promise<void> {
  const { platform, sessions, accessibility } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readAudit = async (request: FastifyRequest, auditId: string) => {
    const c = await caller(request, 'df:session:read');
    return { c, audit: await accessibility.get(c, auditId) };
  };
  /**
   * An audit's scans, findings and exports show its session's screen (screenshots, UI trees, the
   * elements' text): the session's content, for those who may see it (docs/modules/device-testing.md, "Sharing").
   */
  const auditSessionContent = async (request: FastifyRequest, audit: { sessionId: string | null }) => {
    if (audit.sessionId !== null) await sessionContent(platform.db, request, audit.sessionId);
  };
  const readAuditContent = async (request: FastifyRequest, auditId: string) => {
    const read = await readAudit(request, auditId);
    await auditSessionContent(request, read.audit);
    return read;
  };
  const filterFindings = (list: FindingView[], q: z.infer<typeof FindingQuery>) =>
    list.filter((f) => (!q.impact || q.impact.includes(f.impact)) && (!q.ruleId || q.ruleId.includes(f.ruleId)) && (!q.triage || q.triage.includes(f.triage.status)));

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
      const unique = (list: FindingView[]) => [...new Map(list.map((f) => [f.fingerprint, f] as const)).values()];
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

  r.get('/api/accessibility/audits/:auditId/scans', {
    schema: { tags, summary: "A report's scans", params: AuditParams, response: { 200: z.array(ScanSchema) } },
    handler: async (request) => listScans(platform.db, (await readAuditContent(request, request.params.auditId)).audit.id),
  });

  r.get('/api/accessibility/audits/:auditId/scans/:scanId', {
    schema: { tags, summary: 'One scan with its findings', params: AuditParams.extend({ scanId: idParam }), response: { 200: ScanWithFindings } },
    handler: async (request) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const { screenshotKey: _k, treeKey: _t, ...scan } = found(await findScan(platform.db, audit.id, request.params.scanId), 'Scan not found');
      return { ...scan, findings: await listFindings(platform.db, audit.id, scan.id) };
    },
  });

  r.get('/api/accessibility/audits/:auditId/scans/:scanId/screenshot', {
    schema: { tags, summary: "The scanned screen (PNG)", params: AuditParams.extend({ scanId: idParam }) },
    handler: async (request, reply) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const scan = found(await findScan(platform.db, audit.id, request.params.scanId), 'Scan not found');
      const blob = found(scan.screenshotKey ? await platform.blobs.get(scan.screenshotKey) : null, 'Screenshot not found');
      return reply.header('content-type', 'image/png').send(blob.stream);
    },
  });

  r.get('/api/accessibility/audits/:auditId/scans/:scanId/ui-tree', {
    schema: { tags, summary: 'The UI tree of the scanned screen (as GET /df/api/sessions/{id}/ui-tree answered it then)', params: AuditParams.extend({ scanId: idParam }) },
    handler: async (request, reply) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const scan = found(await findScan(platform.db, audit.id, request.params.scanId), 'Scan not found');
      const blob = found(scan.treeKey ? await platform.blobs.get(scan.treeKey) : null, 'UI tree not found');
      return reply.header('content-type', 'application/json').send(blob.stream);
    },
  });

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

  r.post('/api/accessibility/audits/:auditId/exports', {
    schema: { tags, summary: 'Request an export (csv, json, or an offline html report); poll it until succeeded', params: AuditParams, body: z.object({ format: ExportFormat }), response: { 202: ExportSchema } },
    handler: async (request, reply) => {
      const { c, audit } = await readAuditContent(request, request.params.auditId);
      const view = await accessibility.requestExport(c, audit, request.body.format);
      return reply.code(202).header('location', `/df/api/accessibility/audits/${audit.id}/exports/${view.id}`).send(view);
    },
  });

  r.get('/api/accessibility/audits/:auditId/exports/:exportId', {
    schema: { tags, summary: 'One export; a succeeded one carries its download url', params: AuditParams.extend({ exportId: idParam }), response: { 200: ExportSchema } },
    handler: async (request) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const { blobKey: _b, ...view } = found(await findExport(platform.db, audit.id, request.params.exportId), 'Export not found');
      return view.state === 'succeeded' ? { ...view, url: downloadUrl(audit.id, view.id) } : view;
    },
  });

  r.get('/api/accessibility/audits/:auditId/exports/:exportId/download', {
    schema: { tags, summary: "An export's file", params: AuditParams.extend({ exportId: idParam }) },
    handler: async (request, reply) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const ex = found(await findExport(platform.db, audit.id, request.params.exportId), 'Export not found');
      const blob = found(ex.blobKey ? await platform.blobs.get(ex.blobKey) : null, 'Export not ready');
      const name = `accessibility-${audit.id}.${ex.format}`;
      return reply.header('content-type', EXPORT_TYPES[ex.format]).header('content-disposition', `attachment; filename="${name}"`).send(blob.stream);
    },
  });
}
