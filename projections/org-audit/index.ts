export { orgAuditProjection, AUDITED_EVENT_TYPES, AUDIT_RESOURCE_TYPES, redact } from './projection.js';
export { AUDIT_EVENT_TYPES, auditEventLabel, type AuditEventType } from './labels.js';
export { auditEntriesAfter, countAuditEventsAfter, listAuditEvents, streamAuditEvents, type AuditEntry, type AuditFilter, type ShippedAuditEntry } from './queries.js';
