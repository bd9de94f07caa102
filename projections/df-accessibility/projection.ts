import { ACCESSIBILITY_EVENT_TYPES, accessibilityEvents, type AccessibilityEvent } from '#events/df/accessibility.js';
import { applyByType, type Projection } from '../types.js';

/** Accessibility audits, their scans and findings (with triage), and their exports. */
export const dfAccessibilityProjection: Projection = {
  name: 'df-accessibility',
  version: 1,
  eventTypes: ACCESSIBILITY_EVENT_TYPES,
  schema: `
    CREATE TABLE IF NOT EXISTS df_a11y_audits (
      audit_id text PRIMARY KEY,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      name text NOT NULL,
      session_id text,
      device_id text NOT NULL,
      platform text NOT NULL,
      status text NOT NULL,
      scan_count integer NOT NULL DEFAULT 0,
      critical integer NOT NULL DEFAULT 0,
      serious integer NOT NULL DEFAULT 0,
      moderate integer NOT NULL DEFAULT 0,
      minor integer NOT NULL DEFAULT 0,
      created_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      completed_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS df_a11y_audits_tenant ON df_a11y_audits (company_id, workspace_id, created_at DESC);
    CREATE TABLE IF NOT EXISTS df_a11y_scans (
      scan_id text PRIMARY KEY,
      audit_id text NOT NULL,
      engine text NOT NULL,
      url text NOT NULL,
      title text NOT NULL,
      scope text NOT NULL,
      screenshot_key text,
      tree_key text,
      screen jsonb,
      finding_count integer NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_a11y_scans_audit ON df_a11y_scans (audit_id, created_at);
    CREATE TABLE IF NOT EXISTS df_a11y_findings (
      finding_id text PRIMARY KEY,
      audit_id text NOT NULL,
      scan_id text NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      seq integer NOT NULL,
      rule_id text NOT NULL,
      impact text NOT NULL,
      wcag jsonb NOT NULL,
      description text NOT NULL,
      help_url text NOT NULL,
      selector text NOT NULL,
      text text NOT NULL,
      html text,
      bounds jsonb NOT NULL,
      fingerprint text NOT NULL,
      triage_status text NOT NULL,
      triage_by integer,
      triage_reason text,
      triage_at timestamptz,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS df_a11y_findings_audit ON df_a11y_findings (audit_id, created_at, seq);
    CREATE INDEX IF NOT EXISTS df_a11y_findings_fingerprint ON df_a11y_findings (company_id, workspace_id, fingerprint, triage_at DESC);
    CREATE TABLE IF NOT EXISTS df_a11y_exports (
      export_id text PRIMARY KEY,
      audit_id text NOT NULL,
      format text NOT NULL,
      state text NOT NULL,
      blob_key text,
      size bigint,
      error text,
      requested_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );`,
  tables: ['df_a11y_audits', 'df_a11y_scans', 'df_a11y_findings', 'df_a11y_exports'],
  apply: applyByType<AccessibilityEvent>(
    {
      AccessibilityAuditStarted: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO df_a11y_audits (audit_id, company_id, workspace_id, name, session_id, device_id, platform, status, created_by, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,'in_progress',$8,$9) ON CONFLICT (audit_id) DO NOTHING`,
          [p.auditId, p.companyId, p.workspaceId, p.name, p.sessionId, p.deviceId, p.platform, p.createdBy, at],
        );
      },
      AccessibilityScanRecorded: async (tx, { payload: p }, at) => {
        const inserted = await tx.query(
          `INSERT INTO df_a11y_scans (scan_id, audit_id, engine, url, title, scope, screenshot_key, tree_key, screen, finding_count, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT (scan_id) DO NOTHING RETURNING scan_id`,
          [p.scanId, p.auditId, p.engine, p.url, p.title, p.scope, p.screenshotKey, p.treeKey, p.screen === null ? null : JSON.stringify(p.screen), p.findings.length, at],
        );
        if (inserted.rows.length === 0) return;
        const audit = await tx.query(`SELECT company_id, workspace_id FROM df_a11y_audits WHERE audit_id = $1`, [p.auditId]);
        const tenant = audit.rows[0];
        if (!tenant) return;
        const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
        let seq = 0;
        for (const f of p.findings) {
          counts[f.impact] += 1;
          await tx.query(
            `INSERT INTO df_a11y_findings (finding_id, audit_id, scan_id, company_id, workspace_id, seq, rule_id, impact, wcag, description, help_url, selector, text, html, bounds, fingerprint,
               triage_status, triage_by, triage_reason, triage_at, created_at)
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21) ON CONFLICT (finding_id) DO NOTHING`,
            [
              f.findingId, p.auditId, p.scanId, tenant.company_id, tenant.workspace_id, seq++, f.ruleId, f.impact, JSON.stringify(f.wcag), f.description, f.helpUrl,
              f.element.selector, f.element.text, f.element.html, JSON.stringify(f.element.bounds), f.fingerprint,
              f.triage.status, f.triage.by, f.triage.reason, f.triage.at, at,
            ],
          );
        }
        await tx.query(
          `UPDATE df_a11y_audits SET scan_count = scan_count + 1, critical = critical + $2, serious = serious + $3, moderate = moderate + $4, minor = minor + $5 WHERE audit_id = $1`,
          [p.auditId, counts.critical, counts.serious, counts.moderate, counts.minor],
        );
      },
      AccessibilityAuditCompleted: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE df_a11y_audits SET status = 'completed', completed_at = coalesce(completed_at, $2) WHERE audit_id = $1`, [p.auditId, at]);
      },
      AccessibilityFindingTriaged: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE df_a11y_findings SET triage_status = $2, triage_by = $3, triage_reason = $4, triage_at = $5 WHERE finding_id = $1`, [p.findingId, p.status, p.by, p.reason, at]);
      },
      AccessibilityExportRequested: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO df_a11y_exports (export_id, audit_id, format, state, requested_by, created_at, updated_at) VALUES ($1,$2,$3,'running',$4,$5,$5) ON CONFLICT (export_id) DO NOTHING`,
          [p.exportId, p.auditId, p.format, p.requestedBy, at],
        );
      },
      AccessibilityExportFinished: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE df_a11y_exports SET state = $2, blob_key = $3, size = $4, error = $5, updated_at = $6 WHERE export_id = $1`, [p.exportId, p.state, p.blobKey, p.size, p.error, at]);
      },
    },
    accessibilityEvents,
  ),
};
