import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ExportFormat } from '#events/df/accessibility.js';
import { findExport } from '#projections/df-accessibility/index.js';
import { found } from '#shared/errors.js';
import { idParam } from '../../http.js';
import { EXPORT_TYPES } from '../exports.js';
import { auditLookup, type AccessibilityRoutesOptions } from './lookup.js';
import { AuditParams, ExportSchema, tags } from './schemas.js';

const ExportParams = AuditParams.extend({ exportId: idParam });
const downloadUrl = (auditId: string, exportId: string) => `/df/api/accessibility/audits/${auditId}/exports/${exportId}/download`;

/** `/df/api/accessibility/audits/{id}/exports`: a report as csv, json or offline html, made in the background. */
export async function exportRoutes(app: FastifyInstance, opts: AccessibilityRoutesOptions): Promise<void> {
  const { platform, accessibility } = opts;
  const { readAuditContent } = auditLookup(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/api/accessibility/audits/:auditId/exports', {
    schema: { tags, summary: 'Request an export (csv, json, or an offline html report); poll it until succeeded', params: AuditParams, body: z.object({ format: ExportFormat }), response: { 202: ExportSchema } },
    handler: async (request, reply) => {
      const { c, audit } = await readAuditContent(request, request.params.auditId);
      const view = await accessibility.requestExport(c, audit, request.body.format);
      return reply.code(202).header('location', `/df/api/accessibility/audits/${audit.id}/exports/${view.id}`).send(view);
    },
  });

  r.get('/api/accessibility/audits/:auditId/exports/:exportId', {
    schema: { tags, summary: 'One export; a succeeded one carries its download url', params: ExportParams, response: { 200: ExportSchema } },
    handler: async (request) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const { blobKey: _b, ...view } = found(await findExport(platform.db, audit.id, request.params.exportId), 'Export not found');
      return view.state === 'succeeded' ? { ...view, url: downloadUrl(audit.id, view.id) } : view;
    },
  });

  r.get('/api/accessibility/audits/:auditId/exports/:exportId/download', {
    schema: { tags, summary: "An export's file", params: ExportParams },
    handler: async (request, reply) => {
      const { audit } = await readAuditContent(request, request.params.auditId);
      const ex = found(await findExport(platform.db, audit.id, request.params.exportId), 'Export not found');
      const blob = found(ex.blobKey ? await platform.blobs.get(ex.blobKey) : null, 'Export not ready');
      const name = `accessibility-${audit.id}.${ex.format}`;
      return reply.header('content-type', EXPORT_TYPES[ex.format]).header('content-disposition', `attachment; filename="${name}"`).send(blob.stream);
    },
  });
}
