import type { RecordedEvent } from '#shared/es/types.js';
import { companyEvents } from '#events/organization/companies.js';
import { apiKeyEvents, oauthClientEvents } from '#events/organization/credentials.js';
import { roleEvents } from '#events/organization/roles.js';
import { teamEvents } from '#events/organization/teams.js';
import { signInEvents, userEvents } from '#events/organization/users.js';
import { workspaceEvents } from '#events/organization/workspaces.js';
import type { Projection } from '../types.js';

export const AUDIT_RESOURCE_TYPES = ['company', 'user', 'role', 'team', 'workspace', 'api-key', 'oauth-client'] as const;

/**
 * Every event type of the organization that changes something or records a sign-in, by resource:
 * the contracts' own type lists, so a new or renamed event cannot go unaudited.
 */
type ResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];
const RESOURCE_OF: Record<string, { type: ResourceType; idField: string }> = {};
const add = (type: ResourceType, idField: string, events: readonly string[]) => {
  for (const e of events) RESOURCE_OF[e] = { type, idField };
};
add('company', 'companyId', companyEvents.types);
add('user', 'userId', [...userEvents.types, ...signInEvents.types]);
add('role', 'roleId', roleEvents.types);
add('team', 'teamId', teamEvents.types);
add('workspace', 'workspaceId', workspaceEvents.types);
add('api-key', 'keyId', apiKeyEvents.types);
add('oauth-client', 'id', oauthClientEvents.types);
export const AUDITED_EVENT_TYPES: readonly string[] = Object.keys(RESOURCE_OF);

// Secrets never reach the audit table, whatever event carries them (password hashes, tokens, key hashes).
const SECRET = /password|token|secret|hash/i;

/** The payload with secret fields replaced by a marker, so an auditor sees that they changed, not what to. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET.test(k) ? '[redacted]' : redact(v)]));
  }
  return value;
}

const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : null);

/** The audit history of each company: who did what to which resource, when, newest first on read. */
export const orgAuditProjection: Projection = {
  name: 'org-audit',
  version: 2,
  eventTypes: AUDITED_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS org_audit_events (
      event_id uuid PRIMARY KEY,
      position bigint NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer,
      actor_id integer,
      event_type text NOT NULL,
      resource_type text NOT NULL,
      resource_id text NOT NULL,
      occurred_at timestamptz NOT NULL,
      correlation_id text,
      payload jsonb NOT NULL
    );
    CREATE INDEX IF NOT EXISTS org_audit_events_company ON org_audit_events (company_id, position DESC);
    CREATE INDEX IF NOT EXISTS org_audit_events_resource ON org_audit_events (company_id, resource_type, resource_id, position DESC);`,
  tables: ['org_audit_events'],
  async apply(tx, recorded: RecordedEvent) {
    const resource = RESOURCE_OF[recorded.type];
    if (!resource) return;
    const payload = (recorded.payload ?? {}) as Record<string, unknown>;
    const m = recorded.metadata;
    const companyId = intOrNull(m.companyId) ?? intOrNull(payload.companyId);
    // Without a company nobody may read it: it would only ever be visible to no one.
    if (companyId === null) return;
    const workspaceId = resource.type === 'workspace' ? intOrNull(payload.workspaceId) : intOrNull(m.workspaceId);
    await tx.query(
      `INSERT INTO org_audit_events (event_id, position, company_id, workspace_id, actor_id, event_type, resource_type, resource_id, occurred_at, correlation_id, payload)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (event_id) DO NOTHING`,
      [
        recorded.id,
        recorded.position.toString(),
        companyId,
        workspaceId,
        intOrNull(m.actorId),
        recorded.type,
        resource.type,
        String(payload[resource.idField] ?? ''),
        m.occurredAt,
        m.correlationId ?? null,
        JSON.stringify(redact(payload)),
      ],
    );
  },
};
