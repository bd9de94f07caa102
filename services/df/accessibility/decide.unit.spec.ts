import { describe, expect, it } from 'vitest';
import type { AccessibilityEvent } from '#events/df/accessibility.js';
import { auditDecider, type AuditCommand, type AuditState } from './decide.js';

const run = (history: AccessibilityEvent[], command: AuditCommand) => {
  const state = history.reduce<AuditState>((s, e) => auditDecider.evolve(s, e), auditDecider.initialState());
  return auditDecider.decide(command, state);
};
const start: AuditCommand = { type: 'Start', auditId: 'a', name: 'n', sessionId: 's', deviceId: 'd', platform: 'web', companyId: 1, workspaceId: 1, createdBy: 7 };
const started = run([], start);
const scan: AuditCommand = {
  type: 'RecordScan', auditId: 'a', scanId: 'sc', engine: 'e', url: 'u', title: 't', scope: 'u', screenshotKey: null, treeKey: null, screen: null,
  findings: [{ findingId: 'f', ruleId: 'r', impact: 'minor', wcag: [], description: '', helpUrl: '', element: { selector: '#x', text: '', html: null, bounds: { x: 0, y: 0, width: 1, height: 1 } }, fingerprint: 'fp', triage: { status: 'open', by: null, reason: null, at: null } }],
};

describe('accessibility audit decider', () => {
  it('starts once', () => {
    expect(started.map((e) => e.type)).toEqual(['AccessibilityAuditStarted']);
    expect(() => run(started, start)).toThrow(expect.objectContaining({ code: 'ALREADY_EXISTS' }));
  });

  it('records scans until completed; completing twice changes nothing', () => {
    const scanned = [...started, ...run(started, scan)];
    const completed = [...scanned, ...run(scanned, { type: 'Complete', auditId: 'a' })];
    expect(completed.map((e) => e.type)).toEqual(['AccessibilityAuditStarted', 'AccessibilityScanRecorded', 'AccessibilityAuditCompleted']);
    expect(run(completed, { type: 'Complete', auditId: 'a' })).toEqual([]);
    expect(() => run(completed, { ...scan, scanId: 'sc2' } as AuditCommand)).toThrow(expect.objectContaining({ code: 'AUDIT_COMPLETED' }));
    expect(() => run([], scan)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('triages a finding of the audit with its fingerprint, and refuses an unknown one', () => {
    const scanned = [...started, ...run(started, scan)];
    expect(run(scanned, { type: 'Triage', auditId: 'a', findingId: 'f', status: 'false_positive', reason: 'why', by: 7 })).toEqual([
      { type: 'AccessibilityFindingTriaged', payload: { auditId: 'a', findingId: 'f', fingerprint: 'fp', status: 'false_positive', reason: 'why', by: 7 } },
    ]);
    expect(() => run(scanned, { type: 'Triage', auditId: 'a', findingId: 'nope', status: 'fixed', reason: null, by: 7 })).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('finishes an export once', () => {
    const requested = [...started, ...run(started, { type: 'RequestExport', auditId: 'a', exportId: 'e', format: 'csv', requestedBy: 7 })];
    const finish: AuditCommand = { type: 'FinishExport', auditId: 'a', exportId: 'e', state: 'succeeded', blobKey: 'k', size: 1, error: null };
    const finished = [...requested, ...run(requested, finish)];
    expect(finished.at(-1)!.type).toBe('AccessibilityExportFinished');
    expect(run(finished, finish)).toEqual([]);
  });
});
