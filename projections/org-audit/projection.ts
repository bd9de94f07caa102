import type { RecordedEvent } from '#shared/es/types.js';
import { companyEvents } from '#events/organization/companies.js';
import { apiKeyEvents, oauthClientEvents } from '#events/organization/credentials.js';
import { roleEvents } from '#events/organization/roles.js';
import { teamEvents } from '#events/organization/teams.js';
import { signInEvents, userEvents } from '#events/organization/users.js';
import { workspaceEvents } from '#events/organization/workspaces.js';
import { accessibilityEvents } from '#events/df/accessibility.js';
import type { DeviceEvent } from '#events/df/devices.js';
import { hostEvents } from '#events/df/hosts.js';
import { apiKeyEvents as deviceApiKeyEvents } from '#events/df/keys.js';
import { reservationEvents } from '#events/df/reservations.js';
import { sessionEvents } from '#events/df/sessions.js';
import { sharingEvents, type SharingEvent } from '#events/df/sharing.js';
import { fleetEvents, type FleetEvent } from '#events/df/fleet.js';
import type { Sql } from '#shared/db/index.js';
import type { Projection } from '../types.js';

export const AUDIT_RESOURCE_TYPES = [
  'company',
  'user',
  'role',
  'team',
  'workspace',
  'api-key',
  'oauth-client',
  'device-session',
  'device-host',
  'device',
  'device-api-key',
  'device-reservation',
  'device-session-share',
  'device-session-viewer',
  'accessibility-audit',
  'device-session-defaults',
  'device-quota-plan',
] as const;

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
// Device testing: who opened, changed, recorded and ended sessions (WebDriver ones included), their
// keys, hosts and bookings. A session's timeline (every input) and artifacts are its own record, not audit.
const SESSION_CONTENT = new Set(['DeviceSessionActivityRecorded', 'DeviceSessionActivityExtended', 'DeviceSessionArtifactStored']);
add('device-session', 'sessionId', sessionEvents.types.filter((t) => !SESSION_CONTENT.has(t)));
add('device-host', 'hostId', hostEvents.types);
// A device moved between the company's hosts, and another host's claim on it refused (both hosts named).
add('device', 'deviceId', ['DeviceMoved', 'DeviceClaimRefused'] satisfies DeviceEvent['type'][]);
add('device-api-key', 'keyId', deviceApiKeyEvents.types);
add('device-reservation', 'reservationId', reservationEvents.types);
add('device-session-share', 'invitationId', ['DeviceSessionInvitationCreated', 'DeviceSessionInvitationRevoked', 'DeviceSessionInvitationAccepted'] satisfies SharingEvent['type'][]);
// Who watched a session and who was disconnected: records of the session's viewers, not changes of a resource.
const RECORDS = new Set<string>(['DeviceSessionViewerJoined', 'DeviceSessionViewerDisconnected'] satisfies SharingEvent['type'][]);
add('device-session-viewer', 'sessionId', [...RECORDS]);
// Accessibility audits: started, each scan, completed, every triage and export. A scan is a record (its
// findings are not folded into the audit's state).
add('accessibility-audit', 'auditId', accessibilityEvents.types);
RECORDS.add('AccessibilityScanRecorded');
RECORDS.add('DeviceMoved');
RECORDS.add('DeviceClaimRefused');
// Debug access given or withdrawn on a session: a record of who may debug it, not a change of the session.
RECORDS.add('DeviceSessionDebugAccessGranted');
RECORDS.add('DeviceSessionDebugAccessWithdrawn');
for (const t of sharingEvents.types) if (!RESOURCE_OF[t]) throw new Error(`${t} is not audited`);
// A workspace's session defaults and the company's plan limits: who changed them, from what to what.
add('device-session-defaults', 'workspaceId', ['DfSessionDefaultsSet'] satisfies FleetEvent['type'][]);
add('device-quota-plan', 'companyId', ['DfQuotaPlanSet'] satisfies FleetEvent['type'][]);
for (const t of fleetEvents.types) if (!RESOURCE_OF[t]) throw new Error(`${t} is not audited`);

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

/**
 * Old and new values of what an event changes: each payload field whose value differs from the one
 * the resource had (its earlier events folded), as `{field: {old, new}}`. A resource's first event
 * changes nothing; it creates.
 */
function changesOf(before: Record<string, unknown> | null, payload: Record<string, unknown>, idField: string): Record<string, { old: unknown; new: unknown }> | null {
  if (!before) return null;
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (key === idField || !(key in before)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) changes[key] = { old: before[key], new: value };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** The resource as its audited events so far describe it (redacted), and what this event makes of it. */
async function foldResource(tx: Sql, key: [number, string, string], payload: Record<string, unknown>): Promise<{ before: Record<string, unknown> | null; after: Record<string, unknown> }> {
  const r = await tx.query<{ state: unknown }>(`SELECT state FROM org_audit_resources WHERE company_id = $1 AND resource_type = $2 AND resource_id = $3`, key);
  const raw = r.rows[0]?.state;
  const before = raw === undefined ? null : ((typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>);
  const after = { ...before, ...payload };
  await tx.query(
    `INSERT INTO org_audit_resources (company_id, resource_type, resource_id, state) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (company_id, resource_type, resource_id) DO UPDATE SET state = excluded.state`,
    [...key, JSON.stringify(after)],
  );
  return { before, after };
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : null);

/** The device of a session, as the session's audited events recorded it. */
async function sessionDevice(tx: Sql, companyId: number, sessionId: string): Promise<string | null> {
  const r = await tx.query<{ d: unknown }>(`SELECT state->>'deviceId' AS d FROM org_audit_resources WHERE company_id = $1 AND resource_type = 'device-session' AND resource_id = $2`, [companyId, sessionId]);
  return text(r.rows[0]?.d);
}

const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : null);

/** The audit history of each company: who did what to which resource, when, newest first on read. */
export const orgAuditProjection: Projection = {
  name: 'org-audit',
  version: 3,
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
      payload jsonb NOT NULL,
      actor_label text,
      client_address text,
      device_id text,
      session_id text,
      changes jsonb
    );
    CREATE INDEX IF NOT EXISTS org_audit_events_company ON org_audit_events (company_id, position DESC);
    CREATE INDEX IF NOT EXISTS org_audit_events_resource ON org_audit_events (company_id, resource_type, resource_id, position DESC);
    CREATE INDEX IF NOT EXISTS org_audit_events_device ON org_audit_events (company_id, device_id, position DESC) WHERE device_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS org_audit_events_session ON org_audit_events (company_id, session_id, position DESC) WHERE session_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS org_audit_resources (
      company_id integer NOT NULL,
      resource_type text NOT NULL,
      resource_id text NOT NULL,
      state jsonb NOT NULL,
      PRIMARY KEY (company_id, resource_type, resource_id)
    );`,
  tables: ['org_audit_events', 'org_audit_resources'],
  async apply(tx, recorded: RecordedEvent) {
    const resource = RESOURCE_OF[recorded.type];
    if (!resource) return;
    const payload = (recorded.payload ?? {}) as Record<string, unknown>;
    const m = recorded.metadata;
    const companyId = intOrNull(m.companyId) ?? intOrNull(payload.companyId);
    // Without a company nobody may read it: it would only ever be visible to no one.
    if (companyId === null) return;
    const workspaceId = resource.type === 'workspace' ? intOrNull(payload.workspaceId) : intOrNull(m.workspaceId);
    const resourceId = String(payload[resource.idField] ?? '');
    const redacted = redact(payload) as Record<string, unknown>;
    const { before, after } = RECORDS.has(recorded.type) ? { before: null, after: redacted } : await foldResource(tx, [companyId, resource.type, resourceId], redacted);
    // Events about a session that do not name its device (shares, viewers) are filed under it too.
    const deviceId = text(after.deviceId) ?? (typeof after.sessionId === 'string' ? await sessionDevice(tx, companyId, after.sessionId) : null);
    const actorId = intOrNull(m.actorId);
    await tx.query(
      `INSERT INTO org_audit_events (event_id, position, company_id, workspace_id, actor_id, event_type, resource_type, resource_id, occurred_at, correlation_id, payload,
         actor_label, client_address, device_id, session_id, changes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (event_id) DO NOTHING`,
      [
        recorded.id,
        recorded.position.toString(),
        companyId,
        workspaceId,
        actorId,
        recorded.type,
        resource.type,
        resourceId,
        m.occurredAt,
        m.correlationId ?? null,
        JSON.stringify(redacted),
        // An actor that is not a user (a host's agent, the platform itself) is named as it is.
        actorId === null ? text(m.actorId) : null,
        text(m.clientAddress),
        deviceId,
        text(after.sessionId),
        JSON.stringify(changesOf(before, redacted, resource.idField)),
      ],
    );
  },
};
