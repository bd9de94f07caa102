import type { Sql } from '#shared/db/index.js';
import { type Row, iso, isoOrNull, json, numOrNull, textOrNull } from '#shared/db/index.js';
import type { Impact, Triage, TriageStatus } from '#events/df/accessibility.js';
import { Conditions, countOf, oneOrNull, type WorkspaceScope as Tenant } from '../queries.js';

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
  sessionId: textOrNull(r.session_id),
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
  return oneOrNull(db, `SELECT ${AUDIT_COLUMNS} FROM df_a11y_audits WHERE audit_id = $1 AND company_id = $2 AND workspace_id = $3`, [auditId, tenant.companyId, tenant.workspaceId], toAudit);
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
  const where = Conditions.inWorkspace(tenant);
  for (const [column, values] of [
    ['session_id', filter.sessionId],
    ['device_id', filter.deviceId],
    ['platform', filter.platform],
    ['status', filter.status],
  ] as const) {
    if (values?.length) where.add((n) => `${column} = ANY(${n}::text[])`, values);
  }
  if (filter.from) where.add((n) => `created_at >= ${n}`, filter.from);
  if (filter.to) where.add((n) => `created_at < ${n}`, filter.to);
  const dir = page?.sortDir === 'asc' ? 'ASC' : 'DESC';
  const limit = page ? ` LIMIT ${page.size} OFFSET ${page.page * page.size}` : ' LIMIT 1000';
  const rows = await db.query(`SELECT ${AUDIT_COLUMNS} FROM df_a11y_audits WHERE ${where} ORDER BY created_at ${dir}, audit_id ${dir}${limit}`, where.params);
  const total = await countOf(db, `SELECT count(*)::int AS n FROM df_a11y_audits WHERE ${where}`, where.params);
  return { content: rows.rows.map(toAudit), total };
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
  return row ? { ...toScan(row), screenshotKey: textOrNull(row.screenshot_key), treeKey: textOrNull(row.tree_key) } : null;
}

const triageOf = (r: Row): Triage => ({
  status: r.triage_status as TriageStatus,
  by: numOrNull(r.triage_by),
  reason: textOrNull(r.triage_reason),
  at: isoOrNull(r.triage_at),
});

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
  element: { selector: String(r.selector), text: String(r.text), html: textOrNull(r.html), bounds: json<Bounds>(r.bounds) },
  fingerprint: String(r.fingerprint),
  triage: triageOf(r),
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
  return oneOrNull(db, `SELECT ${FINDING_COLUMNS} FROM df_a11y_findings WHERE finding_id = $1 AND company_id = $2 AND workspace_id = $3`, [findingId, tenant.companyId, tenant.workspaceId], toFinding);
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
  return new Map(r.rows.map((row) => [String(row.fingerprint), triageOf(row)]));
}

const toExport = (r: Row): ExportView => ({
  id: String(r.export_id),
  auditId: String(r.audit_id),
  format: r.format as ExportView['format'],
  state: r.state as ExportView['state'],
  size: numOrNull(r.size),
  error: textOrNull(r.error),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** An export of an audit, with where its file is kept. */
export async function findExport(db: Sql, auditId: string, exportId: string): Promise<(ExportView & { blobKey: string | null }) | null> {
  const r = await db.query(`SELECT * FROM df_a11y_exports WHERE audit_id = $1 AND export_id = $2`, [auditId, exportId]);
  const row = r.rows[0];
  return row ? { ...toExport(row), blobKey: textOrNull(row.blob_key) } : null;
}
