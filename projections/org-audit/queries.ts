import type { Sql } from '#shared/db/index.js';
import type { Page } from '#shared/paging.js';
import { namesOfUsers } from '../org-directory/index.js';
import { auditEventLabel } from './labels.js';

export interface AuditFilter {
  workspaceId?: number;
  actorId?: number;
  resourceType?: string;
  resourceId?: string;
  eventType?: string;
  /** Events about a device: its sessions and bookings. */
  deviceId?: string;
  /** Events about a device session (its start, shares, viewers, end, removal). */
  sessionId?: string;
  from?: string;
  to?: string;
}

export interface AuditEntry {
  id: string;
  position: string;
  occurredAt: string;
  eventType: string;
  /** The event type in words ("Viewer disconnected"). */
  eventLabel: string;
  resourceType: string;
  resourceId: string;
  /** What the resource was called when it happened (a device, session, file, app version, user, workspace ...). */
  resourceName: string | null;
  workspaceId: number | null;
  actorId: number | null;
  /** Who acted: the user's name and e-mail as the directory has them, or how a non-user actor is called. */
  actorName: string | null;
  actorEmail: string | null;
  /** The person the event is about when that is not the resource itself (the viewer disconnected, the member added). */
  subjectUserId: number | null;
  subjectName: string | null;
  subjectEmail: string | null;
  /** Where the request that caused it came from. */
  clientAddress: string | null;
  deviceId: string | null;
  sessionId: string | null;
  correlationId: string | null;
  /** What a change changed: `{field: {old, new}}`; null for a creation or an event that changes no field. */
  changes: Record<string, { old: unknown; new: unknown }> | null;
  payload: Record<string, unknown>;
}

function where(companyId: number, f: AuditFilter): { sql: string; values: unknown[] } {
  const clauses = ['a.company_id = $1'];
  const values: unknown[] = [companyId];
  const add = (column: string, op: string, value: unknown) => {
    values.push(value);
    clauses.push(`a.${column} ${op} $${values.length}`);
  };
  if (f.workspaceId !== undefined) add('workspace_id', '=', f.workspaceId);
  if (f.actorId !== undefined) add('actor_id', '=', f.actorId);
  if (f.resourceType !== undefined) add('resource_type', '=', f.resourceType);
  if (f.resourceId !== undefined) add('resource_id', '=', f.resourceId);
  if (f.eventType !== undefined) add('event_type', '=', f.eventType);
  if (f.deviceId !== undefined) add('device_id', '=', f.deviceId);
  if (f.sessionId !== undefined) add('session_id', '=', f.sessionId);
  if (f.from !== undefined) add('occurred_at', '>=', f.from);
  if (f.to !== undefined) add('occurred_at', '<', f.to);
  return { sql: clauses.join(' AND '), values };
}

/** The names and e-mails stand empty here: they are the directory's (`namesOfUsers`), filled in by `withNames`. */
const columns = `a.event_id AS id, a.position, a.occurred_at AS "occurredAt", a.event_type AS "eventType", a.resource_type AS "resourceType",
  a.resource_id AS "resourceId", a.resource_name AS "resourceName", a.workspace_id AS "workspaceId", a.actor_id AS "actorId",
  a.actor_label AS "actorName", NULL::text AS "actorEmail", a.subject_user_id AS "subjectUserId", NULL::text AS "subjectName",
  NULL::text AS "subjectEmail", a.client_address AS "clientAddress", a.device_id AS "deviceId", a.session_id AS "sessionId",
  a.correlation_id AS "correlationId", a.changes, a.payload`;
const FROM = `org_audit_events a`;

/**
 * The actor's and the subject's names and e-mails, from the directory (users are never removed from it,
 * only deactivated), so they read as the people are called now: the actor's whatever their company (else
 * how a non-user actor is called), the subject's only when they are of the company whose history it is.
 */
async function withNames(db: Sql, companyId: number, rows: Record<string, unknown>[]): Promise<AuditEntry[]> {
  const ids = rows.flatMap((row) => [row.actorId, row.subjectUserId]).filter((id): id is number => id !== null && id !== undefined).map(Number);
  const names = await namesOfUsers(db, ids);
  return rows.map((row) => {
    const actor = row.actorId === null ? undefined : names.get(Number(row.actorId));
    const subject = row.subjectUserId === null ? undefined : names.get(Number(row.subjectUserId));
    const ofCompany = subject && subject.companyId === companyId ? subject : undefined;
    return toEntry({
      ...row,
      actorName: actor?.name ?? row.actorName,
      actorEmail: actor?.email ?? null,
      subjectName: ofCompany?.name ?? null,
      subjectEmail: ofCompany?.email ?? null,
    });
  });
}

function toEntry(row: Record<string, unknown>): AuditEntry {
  return {
    ...(row as unknown as AuditEntry),
    position: String(row.position),
    eventLabel: auditEventLabel(row.eventType as string),
    occurredAt: new Date(row.occurredAt as string).toISOString(),
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as Record<string, unknown>) : (row.payload as Record<string, unknown>),
    changes: (typeof row.changes === 'string' ? JSON.parse(row.changes) : (row.changes ?? null)) as AuditEntry['changes'],
  };
}

/** One page of a company's audit history, newest first. */
export async function listAuditEvents(db: Sql, companyId: number, f: AuditFilter, page: number, size: number): Promise<Page<AuditEntry>> {
  const w = where(companyId, f);
  const total = Number((await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM org_audit_events a WHERE ${w.sql}`, w.values)).rows[0]?.n ?? 0);
  const r = await db.query(`SELECT ${columns} FROM ${FROM} WHERE ${w.sql} ORDER BY a.position DESC LIMIT ${size} OFFSET ${page * size}`, w.values);
  return { content: await withNames(db, companyId, r.rows), page, size, totalElements: total, totalPages: Math.ceil(total / size) };
}

/**
 * The whole filtered history, newest first, in batches by position (keyset, not offset), so an
 * export of any length holds one batch in memory at a time.
 */
export async function* streamAuditEvents(db: Sql, companyId: number, f: AuditFilter, batchSize = 500): AsyncGenerator<AuditEntry> {
  let before: string | null = null;
  for (;;) {
    const w = where(companyId, f);
    if (before !== null) {
      w.values.push(before);
      w.sql += ` AND a.position < $${w.values.length}`;
    }
    const r = await db.query(`SELECT ${columns} FROM ${FROM} WHERE ${w.sql} ORDER BY a.position DESC LIMIT ${batchSize}`, w.values);
    for (const entry of await withNames(db, companyId, r.rows)) yield entry;
    if (r.rows.length < batchSize) return;
    before = String(r.rows[r.rows.length - 1]!.position);
  }
}

/** An audited event as the shipping to a SIEM sends it: the export's entry, its company and its place in the company's chain. */
export interface ShippedAuditEntry {
  companyId: number;
  /** The event's number in its company's chain and the chain's hash there (hex); null for an event recorded before the chain. */
  chainSeq: number | null;
  chainHash: string | null;
  entry: AuditEntry;
}

/**
 * Every company's audited events after `after` (up to `upTo` when given), oldest first, at most `limit`:
 * what the shipping to a SIEM follows. Each entry is the one the export gives for that event.
 */
export async function auditEntriesAfter(db: Sql, after: bigint, upTo: bigint | null, limit: number): Promise<ShippedAuditEntry[]> {
  const values: unknown[] = [after.toString()];
  let bound = '';
  if (upTo !== null) {
    values.push(upTo.toString());
    bound = ` AND a.position <= $2`;
  }
  const r = await db.query<Record<string, unknown>>(
    `SELECT ${columns}, a.company_id AS "companyId", e.chain_seq::text AS "chainSeq", encode(e.chain_hash, 'hex') AS "chainHash"
     FROM ${FROM} LEFT JOIN es_events e ON e.position = a.position
     WHERE a.position > $1${bound} ORDER BY a.position LIMIT ${Math.max(1, Math.floor(limit))}`,
    values,
  );
  const out: ShippedAuditEntry[] = [];
  for (const row of r.rows) {
    const { companyId, chainSeq, chainHash, ...rest } = row;
    const [entry] = await withNames(db, Number(companyId), [rest]);
    out.push({ companyId: Number(companyId), chainSeq: chainSeq == null ? null : Number(chainSeq), chainHash: (chainHash as string | null) ?? null, entry: entry! });
  }
  return out;
}

/** How many audited events lie after `after`: every company's, or one company's. */
export async function countAuditEventsAfter(db: Sql, after: bigint, companyId?: number): Promise<number> {
  const r = await db.query<{ n: unknown }>(
    `SELECT count(*) AS n FROM ${FROM} WHERE a.position > $1${companyId === undefined ? '' : ' AND a.company_id = $2'}`,
    companyId === undefined ? [after.toString()] : [after.toString(), companyId],
  );
  return Number(r.rows[0]?.n ?? 0);
}
