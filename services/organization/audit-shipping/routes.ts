import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '#shared/http/principal.js';
import { callerOf } from '../http.js';
import type { AuditShipper } from './shipper.js';

export interface AuditShippingOptions {
  shipper: AuditShipper;
}

const Target = z
  .object({
    kind: z.enum(['syslog', 'http']).describe('syslog: RFC 5424 over TLS; http: JSON lines to a collector'),
    host: z.string().describe('Where it ships to: host and port, never credentials'),
    position: z.string().describe('Position in the event log of the last audited event the target acknowledged'),
    backlog: z.number().int().describe("The caller's company's audited events not shipped yet"),
    lastError: z.string().nullable().describe('Why the last attempt failed; null once a batch went'),
    lastShippedAt: z.string().nullable(),
  })
  .meta({ id: 'AuditShippingTarget' });

/** Where the shipping of the audit history to the installation's SIEM stands (AUDIT_READ). */
export async function auditShippingRoutes(app: FastifyInstance, opts: AuditShippingOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/audit/shipping', {
    schema: {
      tags: ['Audit'],
      summary: "Where the shipping of the audit history to the installation's SIEM stands, each target with the company's backlog; no targets when the operator set none (AUDIT_READ)",
      response: { 200: z.object({ targets: z.array(Target) }).meta({ id: 'AuditShipping' }) },
    },
    handler: async (request) => {
      await requirePermission(request, 'AUDIT_READ');
      return { targets: await opts.shipper.report(callerOf(request).companyId) };
    },
  });
}
