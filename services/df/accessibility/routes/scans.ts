import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findScan, listFindings, listScans } from '#projections/df-accessibility/index.js';
import { found } from '#shared/errors.js';
import { idParam } from '../../http.js';
import { auditLookup, type AccessibilityRoutesOptions } from './lookup.js';
import { AuditParams, ScanSchema, ScanWithFindings, tags } from './schemas.js';

const ScanParams = AuditParams.extend({ scanId: idParam });

/** `/df/api/accessibility/audits/{id}/scans`: a report's scans, with their findings, screens and UI trees. */
export async function scanRoutes(app: FastifyInstance, opts: AccessibilityRoutesOptions): Promise<void> {
  const { platform } = opts;
  const { readAuditContent } = auditLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** A file a scan kept (its screen or its UI tree), as it was stored. */
  const scanFile = async (request: FastifyRequest, params: z.infer<typeof ScanParams>, reply: FastifyReply, file: { key: 'screenshotKey' | 'treeKey'; missing: string; type: string }) => {
    const { audit } = await readAuditContent(request, params.auditId);
    const scan = found(await findScan(platform.db, audit.id, params.scanId), 'Scan not found');
    const key = scan[file.key];
    const blob = found(key ? await platform.blobs.get(key) : null, file.missing);
    return reply.header('content-type', file.type).send(blob.stream);
  };

  r.get('/api/accessibility/audits/:auditId/scans', {
    schema: { tags, summary: "A report's scans", params: AuditParams, response: { 200: z.array(ScanSchema) } },
    handler: async (request) => listScans(platform.db, (await readAuditContent(request, request.params.auditId)).audit.id),
  });

  r.get('/api/accessibility/audits/:auditId/scans/:scanId', {
    schema: { tags, summary: 'One scan with its findings', params: ScanParams, response: { 200: ScanWithFindings } },
    handler: async (request) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const { screenshotKey: _k, treeKey: _t, ...scan } = found(await findScan(platform.db, audit.id, request.params.scanId), 'Scan not found');
      return { ...scan, findings: await listFindings(platform.db, audit.id, scan.id) };
    },
  });

  r.get('/api/accessibility/audits/:auditId/scans/:scanId/screenshot', {
    schema: { tags, summary: "The scanned screen (PNG)", params: ScanParams },
    handler: (request, reply) => scanFile(request, request.params, reply, { key: 'screenshotKey', missing: 'Screenshot not found', type: 'image/png' }),
  });

  r.get('/api/accessibility/audits/:auditId/scans/:scanId/ui-tree', {
    schema: { tags, summary: 'The UI tree of the scanned screen (as GET /df/api/sessions/{id}/ui-tree answered it then)', params: ScanParams },
    handler: (request, reply) => scanFile(request, request.params, reply, { key: 'treeKey', missing: 'UI tree not found', type: 'application/json' }),
  });
}
