export { orgAuditProjection, AUDITED_EVENT_TYPES, AUDIT_RESOURCE_TYPES, redact } from './projection.js';
export { listAuditEvents, streamAuditEvents, type AuditEntry, type AuditFilter } from './queries.js';
