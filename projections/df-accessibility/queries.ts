import type { Sql } from '#shared/db/index.js';
import { type Row, iso, isoOrNull, json } from '#shared/db/rows.js';
import type { Impact, Triage, TriageStatus } from '#events/df/accessibility.js';

type Tenant = { companyId: number; workspaceId: number };
type Bounds = { x: number; y: number; width: number; height: number };

export interface AuditView {
  id: string;
  name: string;
  sessionId: string | null;
  deviceId: string;
  platform: string;
  status: 'in_progress' | 'completed';
  scanCount: number;
  findingCounts: Record<Impact, number>;
  createdBy: number;
  createdAt: string;
  completedAt: string | null;
}
export interface ScanView {
  id: string;
  auditId: string;
  engine: string;
  url: string;
  title: string;
  scope: string;
  findingCount: number;
  screen: { width: number; height: number } | null;
  hasScreenshot: boolean;
  hasTree: boolean;
  createdAt: string;
}
export interface FindingView {
  id: string;
  auditId: string;
  scanId: string;
  ruleId: string;
  impact: Impact;
  wcag: string[];
  description: string;
  helpUrl: string;
  element: { selector: string; text: string; html: string | null; bounds: Bounds };
  fingerprint: string;
  triage: Triage;
  createdAt: string;
}
export interface ExportView {
  id: string;
  auditId: string;
  format: 'csv' | 'json' | 'html';
  state: 'running' | 'succeeded' | 'failed';
  size: number | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

const AUDIT_COLUMNS = `audit_id, name, session_id, device_id, platform, status, scan_count, critical, serious, moderate, minor, created_by, created_at, completed_at`;
const toAudit = (r: Row): AuditView => ({
  id: String(r.audit_id),
  name: String(r.name),
  sessionId: (r.session_id as string | null) ?? null,
  deviceId: String(r.device_id),
  platform: String(r.platform),
  status: r.status as AuditView['status'],
  scanCount: Number(r.scan_count),
  findingCounts: { critical: Number(r.critical), serious: Number(r.serious), moderate: Number(r.moderate), minor: Number(r.minor) },
  createdBy: Number(r.created_by),
  createdAt: iso(r.created_at),
  completedAt: isoOrNull(r.completed_at),
});

/** An audit of the caller's company and workspace, or null. */
export async function findAudit(db: Sql, tenant: Tenant, auditId: string): Promise<AuditView | null> {
  const r = await db.query(`SELECT ${AUDIT_COLUMNS} FROM df_a11y_audits WHERE audit_id = $1 AND company_id = $2 AND workspace_id = $3`, [auditId, tenant.companyId, tenant.workspaceId]);
  return r.rows[0] ? toAudit(r.rows[0]) : null;
}

export interface AuditFilter {
  sessionId?: string[];
  deviceId?: string[];
  platform?: string[];
  status?: string[];
  from?: string;
  to?: string;
}

/** Audits of the workspace, newest first; a page when `page` is given. */
export async function listAudits(db: Sql, tenant: Tenant, filter: AuditFilter, page?: { page: number; size: number; sortDir: 'asc' | 'desc' }): Promise<{ content: AuditView[]; total: number }> {
  const where = ['company_id = $1', 'workspace_id = $2'];
  const params: unknown[] = [tenant.companyId, tenant.workspaceId];
  const any = (column: string, values: string[] | undefined) => {
    if (!values?.length) return;
    params.push(values);
    where.push(`${column} = ANY($${params.length}::text[])`);
  };
  any('session_id', filter.sessionId);
  any('device_id', filter.deviceId);
  any('platform', filter.platform);
  any('status', filter.status);
  if (filter.from) {
    params.push(filter.from);
    where.push(`created_at >= $${params.length}`);
  }
  if (filter.to) {
    params.push(filter.to);
    where.push(`created_at < $${params.length}`);
  }
  const clause = where.join(' AND ');
  const dir = page?.sortDir === 'asc' ? 'ASC' : 'DESC';
  const limit = page ? ` LIMIT ${page.size} OFFSET ${page.page * page.size}` : ' LIMIT 1000';
  const rows = await db.query(`SELECT ${AUDIT_COLUMNS} FROM df_a11y_audits WHERE ${clause} ORDER BY created_at ${dir}, audit_id ${dir}${limit}`, params);
  const total = await db.query(`SELECT count(*)::int AS n FROM df_a11y_audits WHERE ${clause}`, params);
  return { content: rows.rows.map(toAudit), total: Number(total.rows[0]?.n ?? 0) };
}

const toScan = (r: Row): ScanView => ({
  id: String(r.scan_id),
  auditId: String(r.audit_id),
  engine: String(r.engine),
  url: String(r.url),
  title: String(r.title),
  scope: String(r.scope),
  findingCount: Number(r.finding_count),
  screen: r.screen === null || r.screen === undefined ? null : json(r.screen),
  hasScreenshot: r.screenshot_key !== null && r.screenshot_key !== undefined,
  hasTree: r.tree_key !== null && r.tree_key !== undefined,
  createdAt: iso(r.created_at),
});

export async function listScans(db: Sql, auditId: string): Promise<ScanView[]> {
  const r = await db.query(`SELECT * FROM df_a11y_scans WHERE audit_id = $1 ORDER BY created_at, scan_id`, [auditId]);
  return r.rows.map(toScan);
}

/** A scan of an audit, with where its screenshot is kept. */
export async function findScan(db: Sql, auditId: string, scanId: string): Promise<(ScanView & { screenshotKey: string | null; treeKey: string | null }) | null> {
  const r = await db.query(`SELECT * FROM df_a11y_scans WHERE audit_id = $1 AND scan_id = $2`, [auditId, scanId]);
  const row = r.rows[0];
  return row ? { ...toScan(row), screenshotKey: (row.screenshot_key as string | null) ?? null, treeKey: (row.tree_key as string | null) ?? null } : null;
}

const FINDING_COLUMNS = `finding_id, audit_id, scan_id, rule_id, impact, wcag, description, help_url, selector, text, html, bounds, fingerprint, triage_status, triage_by, triage_reason, triage_at, created_at`;
const toFinding = (r: Row): FindingView => ({
  id: String(r.finding_id),
  auditId: String(r.audit_id),
  scanId: String(r.scan_id),
  ruleId: String(r.rule_id),
  impact: r.impact as Impact,
  wcag: json<string[]>(r.wcag),
  description: String(r.description),
  helpUrl: String(r.help_url),
  element: { selector: String(r.selector), text: String(r.text), html: (r.html as string | null) ?? null, bounds: json<Bounds>(r.bounds) },
  fingerprint: String(r.fingerprint),
  triage: {
    status: r.triage_status as TriageStatus,
    by: r.triage_by === null || r.triage_by === undefined ? null : Number(r.triage_by),
    reason: (r.triage_reason as string | null) ?? null,
    at: isoOrNull(r.triage_at),
  },
  createdAt: iso(r.created_at),
});

/** Every finding of an audit (or of one of its scans), in scan order. */
export async function listFindings(db: Sql, auditId: string, scanId?: string): Promise<FindingView[]> {
  const r = await db.query(
    `SELECT ${FINDING_COLUMNS} FROM df_a11y_findings WHERE audit_id = $1 ${scanId ? 'AND scan_id = $2' : ''} ORDER BY created_at, scan_id, seq`,
    scanId ? [auditId, scanId] : [auditId],
  );
  return r.rows.map(toFinding);
}

/** A finding of the caller's company and workspace, or null. */
export async function findFinding(db: Sql, tenant: Tenant, findingId: string): Promise<FindingView | null> {
  const r = await db.query(`SELECT ${FINDING_COLUMNS} FROM df_a11y_findings WHERE finding_id = $1 AND company_id = $2 AND workspace_id = $3`, [findingId, tenant.companyId, tenant.workspaceId]);
  return r.rows[0] ? toFinding(r.rows[0]) : null;
}

/**
 * The latest triage of each fingerprint in the workspace (what a new finding with that fingerprint
 * carries). Not across workspaces: a triage's reason is only for those who can see its audit.
 */
export async function latestTriage(db: Sql, tenant: Tenant, fingerprints: string[]): Promise<Map<string, Triage>> {
  if (fingerprints.length === 0) return new Map();
  const r = await db.query(
    `SELECT DISTINCT ON (fingerprint) fingerprint, triage_status, triage_by, triage_reason, triage_at FROM df_a11y_findings
     WHERE company_id = $1 AND workspace_id = $2 AND fingerprint = ANY($3::text[]) AND triage_at IS NOT NULL ORDER BY fingerprint, triage_at DESC`,
    [tenant.companyId, tenant.workspaceId, [...new Set(fingerprints)]],
  );
  return new Map(
    r.rows.map((row) => [
      String(row.fingerprint),
      { status: row.triage_status as TriageStatus, by: row.triage_by === null ? null : Number(row.triage_by), reason: (row.triage_reason as string | null) ?? null, at: isoOrNull(row.triage_at) },
    ]),
  );
}

const toExport = (r: Row): ExportView => ({
  id: String(r.export_id),
  auditId: String(r.audit_id),
  format: r.format as ExportView['format'],
  state: r.state as ExportView['state'],
  size: r.size === null || r.size === undefined ? null : Number(r.size),
  error: (r.error as string | null) ?? null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** An export of an audit, with where its file is kept. */
export async function findExport(db: Sql, auditId: string, exportId: string): Promise<(ExportView & { blobKey: string | null }) | null> {
  const r = await db.query(`SELECT * FROM df_a11y_exports WHERE audit_id = $1 AND export_id = $2`, [auditId, exportId]);
  const row = r.rows[0];
  return row ? { ...toExport(row), blobKey: (row.blob_key as string | null) ?? null } : null;
}
