import fp from 'fastify-plugin';
import { auditRoutes, type AuditOptions } from './routes.js';

export type { AuditOptions };

/** The audit history of a company: filtered pages and streamed exports (AUDIT_READ). */
export const auditFeature = fp<AuditOptions>(
  async (app, opts) => {
    await app.register(auditRoutes, opts);
  },
  { name: 'organization-audit', fastify: '5.x' },
);
