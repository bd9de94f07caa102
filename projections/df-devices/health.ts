import type { Sql } from '#shared/db/index.js';

/** Devices whose maintenance ended by its end time at `now` (no tenant check: for the health sweep). */
export async function maintenancesOver(db: Sql, now: Date): Promise<string[]> {
  const r = await db.query<{ device_id: string }>(
    `SELECT device_id FROM df_devices WHERE health_detail->>'state' = 'maintenance' AND (health_detail->>'until')::timestamptz <= $1 ORDER BY device_id LIMIT 500`,
    [now.toISOString()],
  );
  return r.rows.map((row) => row.device_id);
}

/**
 * Devices whose mending under way is past its `until` at `now` with no end recorded (the process that
 * asked for it stopped, or failed to record the end): the health sweep ends them `timed-out`.
 */
export async function mendingsOver(db: Sql, now: Date): Promise<string[]> {
  const r = await db.query<{ device_id: string }>(`SELECT device_id FROM df_devices WHERE mending IS NOT NULL AND (mending->>'until')::timestamptz <= $1 ORDER BY device_id LIMIT 500`, [now.toISOString()]);
  return r.rows.map((row) => row.device_id);
}
