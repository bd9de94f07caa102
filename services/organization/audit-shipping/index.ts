import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { auditShippingRoutes, type AuditShippingOptions } from './routes.js';

export type { AuditShippingOptions };
export { AuditShipper } from './shipper.js';

/** The shipping of the audit history to the installation's SIEM (syslog over TLS, an HTTP collector): its state under `/api/v1/audit/shipping`. */
export const auditShippingFeature = fp<AuditShippingOptions>(routePlugins(auditShippingRoutes), { name: 'organization-audit-shipping', fastify: '5.x' });
