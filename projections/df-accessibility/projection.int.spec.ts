import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { dfAccessibilityProjection } from './projection.js';
import { findAudit, findExport, findFinding, latestTriage, listAudits, listFindings, listScans } from './queries.js';

const tenant = { companyId: 1, workspaceId: 1 };
const open = { status: 'open', by: null, reason: null, at: null };
const started = (auditId: string, extra: Record<string, unknown> = {}) => ({
  type: 'AccessibilityAuditStarted',
  payload: { auditId, name: `audit ${auditId}`, sessionId: 's-1', deviceId: 'd-1', platform: 'web', companyId: 1, workspaceId: 1, createdBy: 7, ...extra },
});
const finding = (findingId: string, ruleId: string, impact: string, fingerprint: string, triage: unknown = open) => ({
  findingId,
  ruleId,
  impact,
  wcag: ['1.1.1'],
  description: `${ruleId} broken`,
  helpUrl: `https://example.test/${ruleId}`,
  element: { selector: `#${findingId}`, text: '', html: null, bounds: { x: 1, y: 2, width: 3, height: 4 } },
  fingerprint,
  triage,
});
const scanned = (auditId: string, scanId: string, findings: unknown[]) => ({
  type: 'AccessibilityScanRecorded',
  payload: { auditId, scanId, engine: 'axe-core 4.11.0', url: 'http://127.0.0.1/p', title: 'P', scope: 'http://127.0.0.1/p', screenshotKey: 'k.png', treeKey: 't.json', screen: { width: 800, height: 600 }, findings },
});

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfAccessibilityProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-accessibility read model', () => {
  it('given an audit with scans, counts scans and findings by impact; completion closes it', async () => {
    await spec.given(
      started('a-1'),
      scanned('a-1', 'sc-1', [finding('f-1', 'image-alt', 'critical', 'fp-1'), finding('f-2', 'color-contrast', 'serious', 'fp-2')]),
      scanned('a-1', 'sc-2', [finding('f-3', 'duplicate-id', 'minor', 'fp-3')]),
      { type: 'AccessibilityAuditCompleted', payload: { auditId: 'a-1' }, metadata: { occurredAt: '2026-01-02T05:00:00.000Z' } },
    );
    expect(await findAudit(spec.db, tenant, 'a-1')).toEqual({
      id: 'a-1', name: 'audit a-1', sessionId: 's-1', deviceId: 'd-1', platform: 'web', status: 'completed', scanCount: 2,
      findingCounts: { critical: 1, serious: 1, moderate: 0, minor: 1 }, createdBy: 7, createdAt: SPEC_TIME, completedAt: '2026-01-02T05:00:00.000Z',
    });
    expect((await listScans(spec.db, 'a-1')).map((s) => [s.id, s.findingCount, s.hasScreenshot, s.hasTree])).toEqual([['sc-1', 2, true, true], ['sc-2', 1, true, true]]);
    expect((await listFindings(spec.db, 'a-1')).map((f) => f.id)).toEqual(['f-1', 'f-2', 'f-3']);
    expect((await listFindings(spec.db, 'a-1', 'sc-2')).map((f) => f.id)).toEqual(['f-3']);
  });

  it('keeps audits, findings and exports to their company and workspace', async () => {
    await spec.given(started('a-1'), started('a-2', { companyId: 2, workspaceId: 9 }), scanned('a-2', 'sc-9', [finding('f-9', 'image-alt', 'critical', 'fp-1')]));
    expect(await findAudit(spec.db, tenant, 'a-2')).toBeNull();
    expect(await findFinding(spec.db, tenant, 'f-9')).toBeNull();
    expect(await findFinding(spec.db, { companyId: 2, workspaceId: 9 }, 'f-9')).toMatchObject({ auditId: 'a-2' });
    expect((await listAudits(spec.db, tenant, {})).content.map((a) => a.id)).toEqual(['a-1']);
    // Another company's triage of the same fingerprint is not carried here.
    await spec.given({ type: 'AccessibilityFindingTriaged', payload: { auditId: 'a-2', findingId: 'f-9', fingerprint: 'fp-1', status: 'wont_fix', reason: 'theirs', by: 9 } });
    expect(await latestTriage(spec.db, tenant, ['fp-1'])).toEqual(new Map());
    expect((await latestTriage(spec.db, { companyId: 2, workspaceId: 9 }, ['fp-1'])).get('fp-1')).toMatchObject({ status: 'wont_fix', reason: 'theirs' });
    // Nor another workspace's of the same company.
    expect(await latestTriage(spec.db, { companyId: 2, workspaceId: 8 }, ['fp-1'])).toEqual(new Map());
  });

  it('given triage, shows it on the finding and answers the latest triage of each fingerprint', async () => {
    await spec.given(
      started('a-1'),
      scanned('a-1', 'sc-1', [finding('f-1', 'image-alt', 'critical', 'fp-1'), finding('f-2', 'color-contrast', 'serious', 'fp-2')]),
      { type: 'AccessibilityFindingTriaged', payload: { auditId: 'a-1', findingId: 'f-1', fingerprint: 'fp-1', status: 'confirmed', reason: null, by: 7 }, metadata: { occurredAt: '2026-01-02T04:00:00.000Z' } },
      { type: 'AccessibilityFindingTriaged', payload: { auditId: 'a-1', findingId: 'f-1', fingerprint: 'fp-1', status: 'wont_fix', reason: 'legacy', by: 8 }, metadata: { occurredAt: '2026-01-02T06:00:00.000Z' } },
    );
    expect((await findFinding(spec.db, tenant, 'f-1'))!.triage).toEqual({ status: 'wont_fix', by: 8, reason: 'legacy', at: '2026-01-02T06:00:00.000Z' });
    const carried = await latestTriage(spec.db, tenant, ['fp-1', 'fp-2']);
    expect([...carried.entries()]).toEqual([['fp-1', { status: 'wont_fix', by: 8, reason: 'legacy', at: '2026-01-02T06:00:00.000Z' }]]);
  });

  it('filters and pages audits', async () => {
    await spec.given(
      { ...started('a-1'), metadata: { occurredAt: '2026-01-01T00:00:00.000Z' } },
      { ...started('a-2', { platform: 'android', sessionId: 's-2' }), metadata: { occurredAt: '2026-01-02T00:00:00.000Z' } },
      { ...started('a-3'), metadata: { occurredAt: '2026-01-03T00:00:00.000Z' } },
      { type: 'AccessibilityAuditCompleted', payload: { auditId: 'a-3' } },
    );
    const ids = async (f: Parameters<typeof listAudits>[2], p?: Parameters<typeof listAudits>[3]) => (await listAudits(spec.db, tenant, f, p)).content.map((a) => a.id);
    expect(await ids({})).toEqual(['a-3', 'a-2', 'a-1']);
    expect(await ids({ platform: ['android'] })).toEqual(['a-2']);
    expect(await ids({ sessionId: ['s-1'], status: ['in_progress'] })).toEqual(['a-1']);
    expect(await ids({ from: '2026-01-02T00:00:00.000Z', to: '2026-01-03T00:00:00.000Z' })).toEqual(['a-2']);
    expect(await ids({}, { page: 1, size: 2, sortDir: 'desc' })).toEqual(['a-1']);
    expect((await listAudits(spec.db, tenant, {}, { page: 0, size: 2, sortDir: 'asc' })).total).toBe(3);
  });

  it('follows an export from running to succeeded', async () => {
    await spec.given(started('a-1'), { type: 'AccessibilityExportRequested', payload: { auditId: 'a-1', exportId: 'e-1', format: 'csv', requestedBy: 7 } });
    expect(await findExport(spec.db, 'a-1', 'e-1')).toMatchObject({ state: 'running', blobKey: null });
    await spec.given({ type: 'AccessibilityExportFinished', payload: { auditId: 'a-1', exportId: 'e-1', state: 'succeeded', blobKey: 'x.csv', size: 12, error: null } });
    expect(await findExport(spec.db, 'a-1', 'e-1')).toMatchObject({ state: 'succeeded', blobKey: 'x.csv', size: 12, format: 'csv' });
    expect(await findExport(spec.db, 'a-2', 'e-1')).toBeNull();
  });

  it('applies a replayed batch without counting anything twice', async () => {
    const recorded = await spec.given(started('a-1'), scanned('a-1', 'sc-1', [finding('f-1', 'image-alt', 'critical', 'fp-1')]));
    await spec.replay(recorded);
    expect(await findAudit(spec.db, tenant, 'a-1')).toMatchObject({ scanCount: 1, findingCounts: { critical: 1 } });
    expect(await listFindings(spec.db, 'a-1')).toHaveLength(1);
  });
});
