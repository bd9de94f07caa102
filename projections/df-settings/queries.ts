import type { Sql } from '#shared/db/index.js';
import type { QuotaLimits, SessionDefaults } from '#events/df/fleet.js';

/** A workspace's session defaults, or null when it has never set them (the configuration's apply). */
export async function findSessionDefaults(db: Sql, workspaceId: number): Promise<SessionDefaults | null> {
  const r = await db.query<{ i: number; m: number; r: boolean; a: boolean; f: 'png' | 'jpeg'; v: number | null }>(
    `SELECT idle_timeout_seconds AS i, max_session_seconds AS m, record_by_default AS r, record_automation AS a, screenshot_format AS f, video_retention_days AS v FROM df_session_defaults WHERE workspace_id = $1`,
    [workspaceId],
  );
  const row = r.rows[0];
  return row ? { idleTimeoutSeconds: row.i, maxSessionSeconds: row.m, recordByDefault: row.r, recordAutomation: row.a, screenshotFormat: row.f, videoRetentionDays: row.v === null ? null : Number(row.v) } : null;
}

/** The workspaces that keep session videos for a limited time, with how many days. */
export async function videoRetentions(db: Sql): Promise<{ workspaceId: number; days: number }[]> {
  const r = await db.query<{ workspace_id: unknown; video_retention_days: unknown }>(`SELECT workspace_id, video_retention_days FROM df_session_defaults WHERE video_retention_days IS NOT NULL ORDER BY workspace_id`);
  return r.rows.map((row) => ({ workspaceId: Number(row.workspace_id), days: Number(row.video_retention_days) }));
}

/** A company's own plan (name and the limits it overrides), or null. */
export async function findQuotaPlan(db: Sql, companyId: number): Promise<{ plan: string; limits: Partial<QuotaLimits> } | null> {
  const r = await db.query<{ plan: string; limits: Partial<QuotaLimits> | string }>(`SELECT plan, limits FROM df_quota_plans WHERE company_id = $1`, [companyId]);
  const row = r.rows[0];
  if (!row) return null;
  return { plan: row.plan, limits: typeof row.limits === 'string' ? (JSON.parse(row.limits) as Partial<QuotaLimits>) : row.limits };
}

/** The session limits the given workspaces set (those that never did are not in the answer). */
export async function sessionLimitsOf(db: Sql, workspaceIds: readonly number[]): Promise<{ workspaceId: number; maxSessionSeconds: number; idleTimeoutSeconds: number }[]> {
  if (workspaceIds.length === 0) return [];
  const r = await db.query<{ workspace_id: unknown; max_session_seconds: unknown; idle_timeout_seconds: unknown }>(
    `SELECT workspace_id, max_session_seconds, idle_timeout_seconds FROM df_session_defaults WHERE workspace_id = ANY($1::integer[])`,
    [workspaceIds],
  );
  return r.rows.map((row) => ({ workspaceId: Number(row.workspace_id), maxSessionSeconds: Number(row.max_session_seconds), idleTimeoutSeconds: Number(row.idle_timeout_seconds) }));
}
