import { fleetEvents, type FleetEvent } from '#events/df/fleet.js';
import { applyByType, type Projection } from '../types.js';

/** Session defaults per workspace and plan limits per company (docs/modules/device-testing.md, "Quotas", "Session defaults"). */
export const dfSettingsProjection: Projection = {
  name: 'df-settings',
  // 2: recordAutomation. 3: videoRetentionDays.
  version: 3,
  eventTypes: fleetEvents.types,
  schema: `
    CREATE TABLE IF NOT EXISTS df_session_defaults (
      workspace_id integer PRIMARY KEY,
      company_id integer NOT NULL,
      idle_timeout_seconds integer NOT NULL,
      max_session_seconds integer NOT NULL,
      record_by_default boolean NOT NULL,
      screenshot_format text NOT NULL,
      updated_at timestamptz NOT NULL,
      updated_by text
    );
    ALTER TABLE df_session_defaults ADD COLUMN IF NOT EXISTS record_automation boolean NOT NULL DEFAULT true;
    ALTER TABLE df_session_defaults ADD COLUMN IF NOT EXISTS video_retention_days integer;
    CREATE TABLE IF NOT EXISTS df_quota_plans (
      company_id integer PRIMARY KEY,
      plan text NOT NULL,
      limits jsonb NOT NULL,
      updated_at timestamptz NOT NULL
    );`,
  tables: ['df_session_defaults', 'df_quota_plans'],
  apply: applyByType<FleetEvent>(
    {
      DfSessionDefaultsSet: (tx, { payload: p }, at, recorded) =>
        tx.query(
          `INSERT INTO df_session_defaults (workspace_id, company_id, idle_timeout_seconds, max_session_seconds, record_by_default, screenshot_format, updated_at, updated_by, record_automation, video_retention_days)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)
           ON CONFLICT (workspace_id) DO UPDATE SET idle_timeout_seconds = excluded.idle_timeout_seconds, max_session_seconds = excluded.max_session_seconds,
             record_by_default = excluded.record_by_default, record_automation = excluded.record_automation, video_retention_days = excluded.video_retention_days, screenshot_format = excluded.screenshot_format, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
          [p.workspaceId, p.companyId, p.idleTimeoutSeconds, p.maxSessionSeconds, p.recordByDefault, p.screenshotFormat, at, recorded.metadata.actorId === null ? null : String(recorded.metadata.actorId), p.recordAutomation, p.videoRetentionDays ?? null],
        ),
      DfQuotaPlanSet: (tx, { payload: p }, at) =>
        tx.query(
          `INSERT INTO df_quota_plans (company_id, plan, limits, updated_at) VALUES ($1,$2,$3,$4)
           ON CONFLICT (company_id) DO UPDATE SET plan = excluded.plan, limits = excluded.limits, updated_at = excluded.updated_at`,
          [p.companyId, p.plan, JSON.stringify(p.limits), at],
        ),
    },
    fleetEvents,
  ),
};
