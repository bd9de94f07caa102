import { randomUUID } from 'node:crypto';
import type { Sql } from '#shared/db/index.js';
import { iso, json, type Row } from '#shared/db/index.js';
import { WEBHOOK_EVENT_NAMES } from '#events/organization/webhooks.js';
import { deliverableWebhookIds } from '#projections/org-webhooks/index.js';

/**
 * The webhook delivery log, a table the organization module owns (not a read model): each message
 * queued for an endpoint, its state and its attempts. Written in the same transaction as the
 * dispatcher's position in the event log, so a message is queued exactly once and survives a restart
 * (docs/modules/webhooks.md, "Why deliveries are not events").
 */
export const DELIVERIES_SCHEMA = `
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id uuid PRIMARY KEY,
    webhook_id integer NOT NULL,
    company_id integer NOT NULL,
    workspace_id integer NOT NULL,
    message_key text NOT NULL,
    event text NOT NULL,
    body text NOT NULL,
    subject text,
    created_at timestamptz NOT NULL,
    state text NOT NULL,
    next_at timestamptz,
    finished_at timestamptz,
    round_start integer NOT NULL DEFAULT 0,
    attempts jsonb NOT NULL DEFAULT '[]'::jsonb,
    UNIQUE (webhook_id, message_key)
  );
  -- The W3C traceparent of what queued it (the request behind the event), when that was traced: each attempt's span continues it.
  ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS traceparent text;
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
  CREATE INDEX IF NOT EXISTS webhook_deliveries_log ON webhook_deliveries (webhook_id, created_at DESC, id);
  CREATE TABLE IF NOT EXISTS webhook_dispatch (name text PRIMARY KEY, position text NOT NULL);`;

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** What a delivery can be about: the events endpoints subscribe to, and `webhook.ping`, sent on request to one endpoint. */
export const DELIVERY_EVENT_NAMES = [...WEBHOOK_EVENT_NAMES, 'webhook.ping'] as const;
export type DeliveryEventName = (typeof DELIVERY_EVENT_NAMES)[number];

/** The body of a message, signed and sent as it is on every attempt. */
export const messageBody = (event: DeliveryEventName, at: Date, data: Record<string, unknown>): string => JSON.stringify({ type: event, timestamp: at.toISOString(), data });

/**
 * One attempt to deliver: when, the HTTP status (null when none came), how long it took, what went
 * wrong, what the endpoint answered, and the headers of the request it made (never the secret:
 * only its signature). Attempts made before the headers were kept have none.
 */
export interface Attempt {
  at: string;
  status: number | null;
  durationMs: number;
  error?: string;
  response?: string;
  request?: { headers: Record<string, string> };
}

/** An attempt as the log shows it: with its request's body, the delivery's own (the bytes every attempt signed and sent). */
export type LoggedAttempt = Omit<Attempt, 'request'> & { request?: { headers: Record<string, string>; body: string } };

export interface Delivery {
  id: string;
  webhookId: number;
  event: DeliveryEventName;
  createdAt: string;
  state: DeliveryState;
  nextAttemptAt: string | null;
  attempts: LoggedAttempt[];
}

/** A due delivery as the sender needs it. */
export interface DueDelivery {
  id: string;
  webhookId: number;
  event: DeliveryEventName;
  body: string;
  /** Attempts since it was last (re)queued: which pause of the schedule comes next. */
  roundAttempts: number;
  /** The trace that queued it (the request behind its event), for its attempts' spans; null when untraced. */
  traceparent: string | null;
}

const deliveryOf = (r: Row): Delivery => ({
  id: String(r.id),
  webhookId: Number(r.webhook_id),
  event: r.event as DeliveryEventName,
  createdAt: iso(r.created_at),
  state: r.state as DeliveryState,
  nextAttemptAt: r.state === 'pending' && r.next_at ? iso(r.next_at) : null,
  // The body is stored once per delivery and never changed: each attempt sent exactly these bytes.
  attempts: json<Attempt[]>(r.attempts).map((a) => (a.request ? { ...a, request: { headers: a.request.headers, body: String(r.body) } } : (a as LoggedAttempt))),
});

/** Where the dispatcher has got in the event log; null before its first start. */
export async function dispatchPosition(db: Sql, forUpdate = false): Promise<bigint | null> {
  const r = await db.query<{ position: string }>(`SELECT position FROM webhook_dispatch WHERE name = 'dispatcher'${forUpdate ? ' FOR UPDATE' : ''}`);
  return r.rows[0] ? BigInt(r.rows[0].position) : null;
}

export async function setDispatchPosition(db: Sql, position: bigint): Promise<void> {
  await db.query(`INSERT INTO webhook_dispatch (name, position) VALUES ('dispatcher', $1) ON CONFLICT (name) DO UPDATE SET position = excluded.position`, [position.toString()]);
}

/** Queues one message for one endpoint, once (the same key again is ignored: null); its delivery's id. */
export async function queueDelivery(
  db: Sql,
  d: { webhookId: number; companyId: number; workspaceId: number; key: string; event: DeliveryEventName; body: string; subject: string | null; createdAt: Date; dueAt: Date; traceparent?: string | undefined },
): Promise<string | null> {
  const r = await db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, webhook_id, company_id, workspace_id, message_key, event, body, subject, created_at, state, next_at, traceparent)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,'pending',$10,$11) ON CONFLICT (webhook_id, message_key) DO NOTHING RETURNING id`,
    [randomUUID(), d.webhookId, d.companyId, d.workspaceId, d.key, d.event, d.body, d.subject, d.createdAt, d.dueAt, d.traceparent ?? null],
  );
  return r.rows[0] ? String(r.rows[0].id) : null;
}

/** Drops the unsent messages about `subject` (a booking moved or over before its reminder went). */
export async function withdrawDeliveries(db: Sql, subject: string): Promise<void> {
  await db.query(`DELETE FROM webhook_deliveries WHERE subject = $1 AND state = 'pending' AND attempts = '[]'::jsonb`, [subject]);
}

/**
 * Takes up to `limit` due deliveries of enabled endpoints and pushes their next attempt `leaseMs`
 * ahead, so another process (or this one after a crash) tries them again only if this attempt is
 * never recorded. `SKIP LOCKED`: two senders never take one delivery. Which endpoints are enabled is asked
 * of their read model (`deliverableWebhookIds`, org-webhooks) for the endpoints with a delivery due.
 */
export async function claimDue(db: Sql, now: Date, leaseMs: number, limit: number): Promise<DueDelivery[]> {
  const due = await db.query<{ webhook_id: unknown }>(`SELECT DISTINCT webhook_id FROM webhook_deliveries WHERE state = 'pending' AND next_at <= $1`, [now]);
  const endpoints = await deliverableWebhookIds(db, due.rows.map((row) => Number(row.webhook_id)));
  if (endpoints.length === 0) return [];
  const r = await db.query<Row>(
    `UPDATE webhook_deliveries d SET next_at = $2 FROM (
       SELECT d2.id FROM webhook_deliveries d2
        WHERE d2.state = 'pending' AND d2.next_at <= $1 AND d2.webhook_id = ANY($4::integer[])
        ORDER BY d2.next_at LIMIT $3 FOR UPDATE OF d2 SKIP LOCKED) due
     WHERE d.id = due.id
     RETURNING d.id, d.webhook_id, d.event, d.body, jsonb_array_length(d.attempts) - d.round_start AS round_attempts, d.traceparent`,
    [now, new Date(now.getTime() + leaseMs), limit, endpoints],
  );
  return r.rows.map((row) => ({ id: String(row.id), webhookId: Number(row.webhook_id), event: row.event as DeliveryEventName, body: String(row.body), roundAttempts: Number(row.round_attempts), traceparent: row.traceparent == null ? null : String(row.traceparent) }));
}

/** Records an attempt and what follows: delivered, failed, or the next attempt's time. */
export async function recordAttempt(db: Sql, id: string, attempt: Attempt, next: { state: DeliveryState; nextAt: Date | null; now: Date }): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET attempts = attempts || $2::jsonb, state = $3, next_at = $4, finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE $5::timestamptz END WHERE id = $1`,
    [id, JSON.stringify([attempt]), next.state, next.nextAt, next.now],
  );
}

/** Whether the endpoint's last `count` finished deliveries all failed (and it has that many). */
export async function lastDeliveriesFailed(db: Sql, webhookId: number, count: number): Promise<boolean> {
  const r = await db.query<{ state: string }>(
    `SELECT state FROM webhook_deliveries WHERE webhook_id = $1 AND state IN ('delivered', 'failed') ORDER BY finished_at DESC LIMIT $2`,
    [webhookId, count],
  );
  return r.rows.length === count && r.rows.every((row) => row.state === 'failed');
}

/** A page of one endpoint's deliveries, newest first. */
export async function listDeliveries(db: Sql, webhookId: number, page: number, size: number): Promise<{ content: Delivery[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.query<Row>(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [webhookId, size, page * size]),
    db.query<{ n: unknown }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = $1`, [webhookId]),
  ]);
  return { content: rows.rows.map(deliveryOf), total: Number(count.rows[0]!.n) };
}

export async function getDelivery(db: Sql, webhookId: number, id: string): Promise<Delivery | null> {
  const r = await db.query<Row>(`SELECT * FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2`, [webhookId, id]);
  return r.rows[0] ? deliveryOf(r.rows[0]) : null;
}

/**
 * Queues a delivery again, due now, with a fresh retry schedule; its earlier attempts stay in its log.
 * Its next attempts continue `traceparent` (the redelivery's request) when given.
 */
export async function requeueDelivery(db: Sql, webhookId: number, id: string, now: Date, traceparent?: string): Promise<boolean> {
  const r = await db.query(
    `UPDATE webhook_deliveries SET state = 'pending', next_at = $3, finished_at = NULL, round_start = jsonb_array_length(attempts), traceparent = COALESCE($4, traceparent) WHERE webhook_id = $1 AND id = $2`,
    [webhookId, id, now, traceparent ?? null],
  );
  return r.rowCount > 0;
}

/** Deliveries still to be delivered (pending, retries included), for `qa_webhook_deliveries_pending`. */
export async function pendingDeliveries(db: Sql): Promise<number> {
  const { rows } = await db.query<{ n: unknown }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE state = 'pending'`);
  return Number(rows[0]?.n ?? 0);
}
