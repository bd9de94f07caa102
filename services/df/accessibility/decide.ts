import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { AccessibilityEvent, ExportFormat, RecordedFinding, TriageStatus } from '#events/df/accessibility.js';

/** One audit as its stream knows it. */
export interface AuditState {
  exists: boolean;
  status: 'in_progress' | 'completed';
  /** Fingerprints of its findings, by finding id. */
  findings: Record<string, string>;
  exports: Record<string, 'running' | 'succeeded' | 'failed'>;
}

export type AuditCommand =
  | { type: 'Start'; auditId: string; name: string; sessionId: string | null; deviceId: string; platform: string; companyId: number; workspaceId: number; createdBy: number }
  | { type: 'RecordScan'; auditId: string; scanId: string; engine: string; url: string; title: string; scope: string; screenshotKey: string | null; treeKey: string | null; screen: { width: number; height: number } | null; findings: RecordedFinding[] }
  | { type: 'Complete'; auditId: string }
  | { type: 'Triage'; auditId: string; findingId: string; status: TriageStatus; reason: string | null; by: number }
  | { type: 'RequestExport'; auditId: string; exportId: string; format: ExportFormat; requestedBy: number }
  | { type: 'FinishExport'; auditId: string; exportId: string; state: 'succeeded' | 'failed'; blobKey: string | null; size: number | null; error: string | null };

const mustExist = (s: AuditState) => {
  if (!s.exists) throw new AppError('NOT_FOUND', 'Audit not found');
};

export const auditDecider = defineDecider<AuditCommand, AccessibilityEvent, AuditState>({
  initialState: () => ({ exists: false, status: 'in_progress', findings: {}, exports: {} }),
  evolve: {
    AccessibilityAuditStarted: (s) => ({ ...s, exists: true }),
    AccessibilityScanRecorded: (s, { payload: p }) => ({ ...s, findings: { ...s.findings, ...Object.fromEntries(p.findings.map((f) => [f.findingId, f.fingerprint])) } }),
    AccessibilityAuditCompleted: (s) => ({ ...s, status: 'completed' }),
    AccessibilityFindingTriaged: (s) => s,
    AccessibilityExportRequested: (s, { payload: p }) => ({ ...s, exports: { ...s.exports, [p.exportId]: 'running' } }),
    AccessibilityExportFinished: (s, { payload: p }) => ({ ...s, exports: { ...s.exports, [p.exportId]: p.state } }),
  },
  decide: {
    Start: (c, s) => {
      if (s.exists) throw new AppError('ALREADY_EXISTS', 'Audit already exists');
      const { type: _t, ...payload } = c;
      return [{ type: 'AccessibilityAuditStarted', payload }];
    },
    RecordScan: (c, s) => {
      mustExist(s);
      if (s.status === 'completed') throw new AppError('AUDIT_COMPLETED', 'The audit is completed; start a new one to scan again');
      const { type: _t, ...payload } = c;
      return [{ type: 'AccessibilityScanRecorded', payload }];
    },
    Complete: (c, s) => {
      mustExist(s);
      return s.status === 'completed' ? [] : [{ type: 'AccessibilityAuditCompleted', payload: { auditId: c.auditId } }];
    },
    Triage: (c, s) => {
      mustExist(s);
      const fingerprint = s.findings[c.findingId];
      if (fingerprint === undefined) throw new AppError('NOT_FOUND', 'Finding not found');
      return [{ type: 'AccessibilityFindingTriaged', payload: { auditId: c.auditId, findingId: c.findingId, fingerprint, status: c.status, reason: c.reason, by: c.by } }];
    },
    RequestExport: (c, s) => {
      mustExist(s);
      const { type: _t, ...payload } = c;
      return [{ type: 'AccessibilityExportRequested', payload }];
    },
    FinishExport: (c, s) => {
      mustExist(s);
      if (s.exports[c.exportId] !== 'running') return [];
      const { type: _t, ...payload } = c;
      return [{ type: 'AccessibilityExportFinished', payload }];
    },
  },
});
