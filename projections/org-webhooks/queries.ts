import type { Sql } from '#shared/db/index.js';
import { iso, type Row } from '#shared/db/index.js';
import type { WebhookEventName } from '#events/organization/webhooks.js';

/**
 * A webhook endpoint as the read model holds it, with its secrets as the events carry them: sealed
 * (`sealed:v1:...`), or clear when recorded before sealing. Never sent to a client.
 */
export interface WebhookRow {
  id: number;
  companyId: number;
  workspaceId: number;
  url: string;
  events: WebhookEventName[];
  enabled: boolean;
  secret: string;
  createdBy: number;
  createdAt: string;
  disabledReason: string | null;
  /** The secret a rotation replaced and until when it signs too (null when none was rotated). */
  previousSecret: string | null;
  previousSecretUntil: string | null;
}

const rowOf = (r: Row): WebhookRow => ({
  id: Number(r.id),
  companyId: Number(r.company_id),
  workspaceId: Number(r.workspace_id),
  url: String(r.url),
  events: (r.events as WebhookEventName[]) ?? [],
  enabled: Boolean(r.enabled),
  secret: String(r.secret),
  createdBy: Number(r.created_by),
  createdAt: iso(r.created_at),
  disabledReason: r.disabled_reason === null || r.disabled_reason === undefined ? null : String(r.disabled_reason),
  previousSecret: r.previous_secret === null || r.previous_secret === undefined ? null : String(r.previous_secret),
  previousSecretUntil: r.previous_secret_until === null || r.previous_secret_until === undefined ? null : iso(r.previous_secret_until),
});

const LIVE = `deleted_at IS NULL`;

/** The workspace's endpoints, oldest first. */
export async function listWebhooks(db: Sql, companyId: number, workspaceId: number): Promise<WebhookRow[]> {
  const r = await db.query<Row>(`SELECT * FROM org_webhooks WHERE company_id = $1 AND workspace_id = $2 AND ${LIVE} ORDER BY id`, [companyId, workspaceId]);
  return r.rows.map(rowOf);
}

/** One endpoint of the workspace; null for another tenant's, a deleted or an unknown one. */
export async function getWebhook(db: Sql, companyId: number, workspaceId: number, id: number): Promise<WebhookRow | null> {
  const r = await db.query<Row>(`SELECT * FROM org_webhooks WHERE company_id = $1 AND workspace_id = $2 AND id = $3 AND ${LIVE}`, [companyId, workspaceId, id]);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

/** Every endpoint not deleted, of every tenant, by id: sealing their secrets again under a new key at start-up. */
export async function allLiveWebhooks(db: Sql): Promise<WebhookRow[]> {
  const r = await db.query<Row>(`SELECT * FROM org_webhooks WHERE ${LIVE} ORDER BY id`);
  return r.rows.map(rowOf);
}

/** One endpoint by id alone, deleted or not: the dispatcher, which only knows the ids it stored. */
export async function findWebhook(db: Sql, id: number): Promise<(WebhookRow & { deleted: boolean }) | null> {
  const r = await db.query<Row>(`SELECT * FROM org_webhooks WHERE id = $1`, [id]);
  return r.rows[0] ? { ...rowOf(r.rows[0]), deleted: r.rows[0].deleted_at !== null } : null;
}

/**
 * The enabled endpoints subscribed to `event` in these workspaces of this company; `workspaceIds`
 * null for every workspace of the company (what happens to a company-wide resource, a device host).
 */
export async function webhooksFor(db: Sql, companyId: number, workspaceIds: readonly number[] | null, event: WebhookEventName): Promise<WebhookRow[]> {
  const r = await db.query<Row>(
    `SELECT * FROM org_webhooks WHERE company_id = $1 AND ($2::integer[] IS NULL OR workspace_id = ANY($2::integer[])) AND $3 = ANY(events) AND enabled AND ${LIVE} ORDER BY id`,
    [companyId, workspaceIds, event],
  );
  return r.rows.map(rowOf);
}

/** Of these endpoints (ids the dispatcher stored, of any tenant), those that are enabled and not deleted: the ones it delivers to. */
export async function deliverableWebhookIds(db: Sql, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const r = await db.query<{ id: unknown }>(`SELECT id FROM org_webhooks WHERE id = ANY($1::integer[]) AND enabled AND ${LIVE} ORDER BY id`, [ids]);
  return r.rows.map((row) => Number(row.id));
}
