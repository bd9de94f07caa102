import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audits.js';
import { exportRoutes } from './exports.js';
import { findingRoutes } from './findings.js';
import type { AccessibilityRoutesOptions } from './lookup.js';
import { scanRoutes } from './scans.js';
import { sessionAuditRoutes } from './session-audits.js';

export { AuditSchema, FindingSchema } from './schemas.js';
export type { AccessibilityRoutesOptions };

/** `/df/api/accessibility` and `/df/api/sessions/{id}/accessibility`: audits, scans, findings, triage, compare, exports (in this order in the OpenAPI document). */
export async function accessibilityRoutes(app: FastifyInstance, opts: AccessibilityRoutesOptions): Promise<void> {
  for (const routes of [auditRoutes, scanRoutes, findingRoutes, sessionAuditRoutes, exportRoutes]) await app.register(routes, opts);
}
