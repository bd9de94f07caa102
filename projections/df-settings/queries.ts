import type { Sql } from '#shared/db/index.js';
import type { QuotaLimits, SessionDefaults } from '#events/df/fleet.js';

/** A workspace's session defaults, or null when it has never set them (the configuration's apply). */
export async function findSessionDefaults(db: Sql, workspaceId: number): Promise<SessionDefaults | null> {
  const r = await db.query<{ i: number; m: number; r: boolean; a: boolean; f: 'png' | 'jpeg' }>(
    `SELECT idle_timeout_seconds AS i, max_session_seconds AS m, record_by_default AS r, record_automation AS a, screenshot_format AS f FROM df_session_defaults WHERE workspace_id = $1`,
    [workspaceId],
  );
  const row = r.rows[0];
  return row ? { idleTimeoutSeconds: row.i, maxSessionSeconds: row.m, recordByDefault: row.r, recordAutomation: row.a, screenshotFormat: row.f } : null;
}

/** A company's own plan (name and the limits it overrides), or null. */
export async function findQuotaPlan(db: Sql, companyId: number): Promise<{ plan: string; limits: Partial<QuotaLimits> } | null> {
  const r = await db.query<{ plan: string; limits: Partial<QuotaLimits> | string }>(`SELECT plan, limits FROM df_quota_plans WHERE company_id = $1`, [companyId]);
  const row = r.rows[0];
  if (!row) return null;
  return { plan: row.plan, limits: typeof row.limits === 'string' ? (JSON.parse(row.limits) as Partial<QuotaLimits>) : row.limits };
}
