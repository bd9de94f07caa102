import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { auditRoutes, type AuditOptions } from './routes.js';

export type { AuditOptions };

/** The audit history of a company: filtered pages and streamed exports (AUDIT_READ). */
export const auditFeature = fp<AuditOptions>(routePlugins(auditRoutes), { name: 'organization-audit', fastify: '5.x' });
