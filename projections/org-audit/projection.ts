import { erasedValue } from '#shared/pii/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { companyEvents } from '#events/organization/companies.js';
import { apiKeyEvents, credentialApprovalEvents, oauthClientEvents } from '#events/organization/credentials.js';
import { roleEvents } from '#events/organization/roles.js';
import { teamEvents } from '#events/organization/teams.js';
import { signInEvents, userEvents } from '#events/organization/users.js';
import { domainEvents } from '#events/organization/domains.js';
import { identityProviderEvents } from '#events/organization/identity-providers.js';
import { scimTokenEvents } from '#events/organization/scim.js';
import { webhookEvents } from '#events/organization/webhooks.js';
import { accessReviewEvents, type AccessReviewEvent } from '#events/organization/access-reviews.js';
import { workspaceEvents } from '#events/organization/workspaces.js';
import { accessibilityEvents } from '#events/df/accessibility.js';
import type { DeviceEvent } from '#events/df/devices.js';
import { hostEvents } from '#events/df/hosts.js';
import { apiKeyEvents as deviceApiKeyEvents } from '#events/df/keys.js';
import { reservationEvents } from '#events/df/reservations.js';
import { sessionEvents } from '#events/df/sessions.js';
import { sharingEvents, type SharingEvent } from '#events/df/sharing.js';
import { fleetEvents, type FleetEvent } from '#events/df/fleet.js';
import { healthEvents, type HealthEvent } from '#events/df/health.js';
import { appEvents, fileEvents } from '#events/df/files.js';
import type { Sql } from '#shared/db/index.js';
import type { DomainEvent } from '#shared/es/index.js';
import { applyByType, type ApplyHandlers, type Projection } from '../types.js';
import { sameJson } from '#shared/canonical.js';
import { AUDIT_RESOURCE_TYPES } from './resource-types.js';

export { AUDIT_RESOURCE_TYPES };


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
add('email-domain', 'domain', domainEvents.types);
// An administrator let a credential made from a password sign-in work where single sign-on is required.
add('credential-approval', 'credentialId', credentialApprovalEvents.types);
add('identity-provider', 'providerId', identityProviderEvents.types);
add('scim-token', 'tokenId', scimTokenEvents.types);
add('webhook', 'webhookId', webhookEvents.types);
// Access reviews: started (the grants then), each keep or revoke decision (a record: a decision is about
// one grant of the review, not a change of the review's fields), completed with each revocation's outcome.
// The revocations are the grants' own events, audited as theirs.
add('access-review', 'reviewId', accessReviewEvents.types);
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
RECORDS.add('AccessReviewItemDecided' satisfies AccessReviewEvent['type']);
// A workspace's session defaults and the company's plan limits: who changed them, from what to what.
add('device-session-defaults', 'workspaceId', ['DfSessionDefaultsSet'] satisfies FleetEvent['type'][]);
add('device-quota-plan', 'companyId', ['DfQuotaPlanSet'] satisfies FleetEvent['type'][]);
for (const t of fleetEvents.types) if (!RESOURCE_OF[t]) throw new Error(`${t} is not audited`);
// A device's health moved (by a reading, an administrator's maintenance or release, a maintenance's end),
// its baseline was re-taken, and the company's health rules changed: who, from what to what.
add('device-health', 'deviceId', ['DeviceHealthChanged', 'DeviceMendingStarted', 'DeviceMendingStepBegun', 'DeviceMendingStep', 'DeviceMendingEnded', 'DeviceBaselineRetaken'] satisfies HealthEvent['type'][]);
add('device-health-rules', 'companyId', ['DfHealthRulesSet'] satisfies HealthEvent['type'][]);
for (const t of healthEvents.types) if (!RESOURCE_OF[t]) throw new Error(`${t} is not audited`);
// Files uploaded (started, confirmed, rejected, aborted, deleted) and the app catalog (versions filed, deleted).
add('file', 'fileId', fileEvents.types);
add('app', 'appId', appEvents.types);
// An app installed on (or uninstalled from) a session's device is an entry of the session's timeline
// (`DeviceSessionActivityRecorded`, action `installApp`/`uninstallApp`); the audit files those two
// actions under types of their own, and no other timeline entry.
const ACTIVITY = 'DeviceSessionActivityRecorded';
const INSTALL_ACTIONS: Record<string, string> = { installApp: 'DeviceAppInstalled', uninstallApp: 'DeviceAppUninstalled' };
add('device-app-install', 'sessionId', Object.values(INSTALL_ACTIONS));
for (const t of Object.values(INSTALL_ACTIONS)) RECORDS.add(t);
// Devices are named by their hosts; the audit keeps each device's last reported name to name bookings.
const DEVICE_NAMED = 'DeviceConnected' satisfies DeviceEvent['type'];

/** The audit's event types: what its entries' `eventType` can be, and what its filter takes. */
export const AUDITED_EVENT_TYPES: readonly string[] = Object.keys(RESOURCE_OF);
/** The resource type of each audited event type. */
export const auditResourceTypeOf = (eventType: string): ResourceType | null => RESOURCE_OF[eventType]?.type ?? null;

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
    if (!sameJson(before[key], value)) changes[key] = { old: before[key], new: value };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

/** The resource as its audited events so far describe it (redacted), and what this event makes of it; and its name. */
async function foldResource(
  tx: Sql,
  key: [number, string, string],
  payload: Record<string, unknown>,
): Promise<{ before: Record<string, unknown> | null; after: Record<string, unknown>; name: string | null }> {
  const r = await tx.query<{ state: unknown; name: string | null }>(`SELECT state, name FROM org_audit_resources WHERE company_id = $1 AND resource_type = $2 AND resource_id = $3`, key);
  const raw = r.rows[0]?.state;
  const before = raw === undefined ? null : ((typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>);
  const after = { ...before, ...payload };
  const name = ownName(key[1], payload, r.rows[0]?.name ?? null);
  await tx.query(
    `INSERT INTO org_audit_resources (company_id, resource_type, resource_id, state, name) VALUES ($1, $2, $3, $4::jsonb, $5)
     ON CONFLICT (company_id, resource_type, resource_id) DO UPDATE SET state = excluded.state, name = excluded.name`,
    [...key, JSON.stringify(after), name],
  );
  return { before, after, name };
}

/**
 * What a resource is called after this event: the name the event gives it (created, renamed), else
 * the one it had. A user is called by their name once they have one, by their e-mail before.
 */
function ownName(type: string, payload: Record<string, unknown>, had: string | null): string | null {
  const given =
    text(payload.name) ??
    (type === 'user' ? text((payload.changes as Record<string, unknown> | undefined)?.name) : null) ??
    // A review is named by the workspace it reviews, as that was called when it started.
    (type === 'access-review' && text(payload.workspaceName) ? `Access review of ${text(payload.workspaceName)}` : null);
  if (given) return given;
  if (had) return had;
  return type === 'user' ? (text(payload.email) ?? text(payload.username)) : null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : null);

/** The device of a session, as the session's audited events recorded it. */
async function sessionDevice(tx: Sql, companyId: number, sessionId: string): Promise<string | null> {
  const r = await tx.query<{ d: unknown }>(`SELECT state->>'deviceId' AS d FROM org_audit_resources WHERE company_id = $1 AND resource_type = 'device-session' AND resource_id = $2`, [companyId, sessionId]);
  return text(r.rows[0]?.d);
}

/** The name a resource of the company had when it was last audited. */
async function nameIn(tx: Sql, companyId: number, type: ResourceType, id: unknown): Promise<string | null> {
  if (id === null || id === undefined) return null;
  const r = await tx.query<{ name: string | null }>(`SELECT name FROM org_audit_resources WHERE company_id = $1 AND resource_type = $2 AND resource_id = $3`, [companyId, type, String(id)]);
  return r.rows[0]?.name ?? null;
}

/** A session as people know it: its name and its device's (`Checkout test (Pixel 7)`). */
async function sessionLabel(tx: Sql, companyId: number, sessionId: unknown): Promise<string | null> {
  if (typeof sessionId !== 'string') return null;
  const r = await tx.query<{ name: string | null; device: string | null }>(
    `SELECT name, state->>'deviceName' AS device FROM org_audit_resources WHERE company_id = $1 AND resource_type = 'device-session' AND resource_id = $2`,
    [companyId, sessionId],
  );
  const row = r.rows[0];
  if (!row) return null;
  return row.name && row.device && row.name !== row.device ? `${row.name} (${row.device})` : (row.name ?? row.device);
}

/** A device's name: as its host last reported it, else as a session of the company recorded it. */
async function deviceName(tx: Sql, companyId: number, deviceId: unknown): Promise<string | null> {
  if (typeof deviceId !== 'string') return null;
  const r = await tx.query<{ name: string }>(`SELECT name FROM org_audit_device_names WHERE device_id = $1`, [deviceId]);
  if (r.rows[0]) return r.rows[0].name;
  const s = await tx.query<{ name: string | null }>(
    `SELECT state->>'deviceName' AS name FROM org_audit_resources WHERE company_id = $1 AND resource_type = 'device-session' AND state->>'deviceId' = $2 LIMIT 1`,
    [companyId, deviceId],
  );
  return text(s.rows[0]?.name);
}

/** The version name a catalogued app version was filed with. */
async function versionName(tx: Sql, companyId: number, appId: string, versionId: unknown): Promise<string | null> {
  if (typeof versionId !== 'string') return null;
  const r = await tx.query<{ v: string | null }>(
    `SELECT payload->>'versionName' AS v FROM org_audit_events
     WHERE company_id = $1 AND resource_type = 'app' AND resource_id = $2 AND event_type = 'AppVersionAdded' AND payload->>'versionId' = $3 LIMIT 1`,
    [companyId, appId, versionId],
  );
  return text(r.rows[0]?.v);
}

const on = (what: string | null, where: string | null): string | null => (what && where ? `${what} on ${where}` : (what ?? where));

/**
 * The name an entry shows for its resource, as things were called when it happened: the resource's
 * own name (\`p\` is the resource's state after the event, \`event\` the event's payload), or for what belongs to something else (a booking, a share, a viewer, an install, a
 * workspace's defaults) what it is and where.
 */
async function resourceName(
  tx: Sql,
  companyId: number,
  type: ResourceType,
  resourceId: string,
  own: string | null,
  p: Record<string, unknown>,
  event: Record<string, unknown>,
): Promise<string | null> {
  switch (type) {
    case 'device-session':
      return sessionLabel(tx, companyId, resourceId);
    case 'app': {
      // The version this event is about (an app's deletion is about all of them).
      const version = text(event.versionName) ?? (await versionName(tx, companyId, resourceId, event.versionId));
      return own && version ? `${own} ${version}` : own;
    }
    case 'device-reservation':
      return deviceName(tx, companyId, p.deviceId);
    case 'device-session-share': {
      const invited = text(p.email) ?? (await nameIn(tx, companyId, 'user', p.userId)) ?? (p.type === 'link' ? 'a link' : null);
      return on(invited, await sessionLabel(tx, companyId, p.sessionId));
    }
    case 'device-session-viewer':
      return on(await nameIn(tx, companyId, 'user', p.userId), await sessionLabel(tx, companyId, p.sessionId));
    case 'device-app-install': {
      const detail = (p.detail ?? {}) as Record<string, unknown>;
      const packages = Array.isArray(detail.packageNames) ? detail.packageNames.filter((n) => typeof n === 'string').join(', ') : null;
      return on(text(detail.fileName) ?? text(detail.packageName) ?? text(packages), await sessionLabel(tx, companyId, resourceId));
    }
    case 'device-session-defaults':
      return nameIn(tx, companyId, 'workspace', resourceId);
    case 'device-quota-plan':
    case 'device-health-rules':
      return nameIn(tx, companyId, 'company', resourceId);
    case 'device-health':
      return deviceName(tx, companyId, p.deviceId);
    case 'email-domain':
      return resourceId;

    default:
      return own;
  }
}

const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : null);

/**
 * The types the audit reads: every audited type but the installs (filed from the session's timeline),
 * the timeline's entries and a device's connection (its name). One handler each, built from the list.
 */
const AUDIT_APPLIED_TYPES: readonly string[] = [...AUDITED_EVENT_TYPES.filter((t) => !Object.values(INSTALL_ACTIONS).includes(t)), ACTIVITY, DEVICE_NAMED];

/** A device's connection names it; a timeline entry is audited when it installs or uninstalls an app; every other type is audited as itself. */
function handlerOf(type: string): ApplyHandlers<DomainEvent>[string] {
  if (type === DEVICE_NAMED) return (tx, _event, _at, recorded) => nameDevice(tx, recorded);
  if (type === ACTIVITY) {
    return async (tx, _event, _at, recorded) => {
      const eventType = INSTALL_ACTIONS[String(((recorded.payload ?? {}) as { detail?: Record<string, unknown> }).detail?.action)];
      if (eventType) await audit(tx, recorded, eventType);
    };
  }
  return (tx, _event, _at, recorded) => audit(tx, recorded, type);
}

/** The last name a device's host reported for it. */
async function nameDevice(tx: Sql, recorded: RecordedEvent): Promise<void> {
  const payload = (recorded.payload ?? {}) as Record<string, unknown>;
  const name = text((payload.facts as Record<string, unknown> | undefined)?.name);
  if (name && typeof payload.deviceId === 'string') {
    await tx.query(`INSERT INTO org_audit_device_names (device_id, name) VALUES ($1, $2) ON CONFLICT (device_id) DO UPDATE SET name = excluded.name`, [payload.deviceId, name]);
  }
}

/** One entry of the company's audit history for an event, filed under its audited type. */
async function audit(tx: Sql, recorded: RecordedEvent, eventType: string): Promise<void> {
  const payload = (recorded.payload ?? {}) as Record<string, unknown>;
  const resource = RESOURCE_OF[eventType];
  if (!resource) return;
  const m = recorded.metadata;
  const companyId = intOrNull(m.companyId) ?? intOrNull(payload.companyId);
  // Without a company nobody may read it: it would only ever be visible to no one.
  if (companyId === null) return;
  const workspaceId = resource.type === 'workspace' ? intOrNull(payload.workspaceId) : intOrNull(m.workspaceId);
  const resourceId = String(payload[resource.idField] ?? '');
  const redacted = redact(payload) as Record<string, unknown>;
  // A record (a scan, a viewer, an install) changes no resource; it is named as its resource is.
  const { before, after, name } = RECORDS.has(eventType)
    ? { before: null, after: redacted, name: await nameIn(tx, companyId, resource.type, resourceId) }
    : await foldResource(tx, [companyId, resource.type, resourceId], redacted);
  // Events about a session that do not name its device (shares, viewers) are filed under it too.
  const deviceId = text(after.deviceId) ?? (typeof after.sessionId === 'string' ? await sessionDevice(tx, companyId, after.sessionId) : null);
  // The person an event is about when that is not the resource itself: a viewer, a team member, an invitee.
  const subjectId = resource.type === 'user' ? null : intOrNull(payload.userId);
  const actorId = intOrNull(m.actorId);
  await tx.query(
    `INSERT INTO org_audit_events (event_id, position, company_id, workspace_id, actor_id, event_type, resource_type, resource_id, occurred_at, correlation_id, payload,
       actor_label, client_address, device_id, session_id, changes, resource_name, subject_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) ON CONFLICT (event_id) DO NOTHING`,
    [
      recorded.id,
      recorded.position.toString(),
      companyId,
      workspaceId,
      actorId,
      eventType,
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
      await resourceName(tx, companyId, resource.type, resourceId, name, after, redacted),
      subjectId,
    ],
  );
  // An erased person's entries name them so: the directory no longer knows them.
  if (eventType === 'UserErased') await tx.query(`UPDATE org_audit_events SET actor_label = $3 WHERE company_id = $1 AND actor_id = $2`, [companyId, intOrNull(payload.userId), erasedValue('name', '')]);
}

/** The audit history of each company: who did what to which resource, when, newest first on read. */
export const orgAuditProjection: Projection = {
  name: 'org-audit',
  version: 6,
  keepsPersonalData: true,
  eventTypes: AUDIT_APPLIED_TYPES,
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
    ALTER TABLE org_audit_events ADD COLUMN IF NOT EXISTS resource_name text;
    ALTER TABLE org_audit_events ADD COLUMN IF NOT EXISTS subject_user_id integer;
    CREATE INDEX IF NOT EXISTS org_audit_events_company ON org_audit_events (company_id, position DESC);
    CREATE INDEX IF NOT EXISTS org_audit_events_position ON org_audit_events (position);
    CREATE INDEX IF NOT EXISTS org_audit_events_resource ON org_audit_events (company_id, resource_type, resource_id, position DESC);
    CREATE INDEX IF NOT EXISTS org_audit_events_device ON org_audit_events (company_id, device_id, position DESC) WHERE device_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS org_audit_events_session ON org_audit_events (company_id, session_id, position DESC) WHERE session_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS org_audit_resources (
      company_id integer NOT NULL,
      resource_type text NOT NULL,
      resource_id text NOT NULL,
      state jsonb NOT NULL,
      PRIMARY KEY (company_id, resource_type, resource_id)
    );
    ALTER TABLE org_audit_resources ADD COLUMN IF NOT EXISTS name text;
    CREATE TABLE IF NOT EXISTS org_audit_device_names (
      device_id text PRIMARY KEY,
      name text NOT NULL
    );`,
  tables: ['org_audit_events', 'org_audit_resources', 'org_audit_device_names'],
  apply: applyByType<DomainEvent>(Object.fromEntries(AUDIT_APPLIED_TYPES.map((type) => [type, handlerOf(type)]))),
};
