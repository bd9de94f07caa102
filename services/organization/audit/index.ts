import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { auditChainRoutes } from './chain-routes.js';
import { auditRoutes, type AuditOptions } from './routes.js';

export type { AuditOptions };
export { AuditChain, companyChain } from './chain-service.js';

/** The audit history of a company: filtered pages and streamed exports, and its chain verified and exported (AUDIT_READ). */
export const auditFeature = fp<AuditOptions>(routePlugins(auditRoutes, auditChainRoutes), { name: 'organization-audit', fastify: '5.x' });
