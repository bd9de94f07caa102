import { describe, expect, it } from 'vitest';
import type { FindingView } from '#projections/df-accessibility/index.js';
import { renderCsv, renderHtml, renderJson, type ExportContent } from './exports.js';

const finding = (id: string, over: Partial<FindingView> = {}): FindingView => ({
  id,
  auditId: 'a',
  scanId: 's',
  ruleId: 'image-alt',
  impact: 'critical',
  wcag: ['1.1.1'],
  description: 'Images must have alternative text',
  helpUrl: 'https://example.test/image-alt',
  element: { selector: '#logo', text: '', html: '<img id="logo">', bounds: { x: 10, y: 20, width: 30, height: 40 } },
  fingerprint: `fp-${id}`,
  triage: { status: 'open', by: null, reason: null, at: null },
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const content = (findings: FindingView[], screenshot: Buffer | null = null): ExportContent => ({
  audit: { id: 'a', name: 'Release <1>', sessionId: null, deviceId: 'd', platform: 'web', status: 'completed', scanCount: 1, findingCounts: { critical: findings.length, serious: 0, moderate: 0, minor: 0 }, createdBy: 1, createdAt: '2026-01-01T00:00:00.000Z', completedAt: null },
  scans: [{ id: 's', auditId: 'a', engine: 'axe-core 4.11.0', url: 'http://127.0.0.1/p', title: 'P', scope: 'http://127.0.0.1/p', findingCount: findings.length, screen: { width: 100, height: 200 }, hasScreenshot: screenshot !== null, hasTree: false, createdAt: '2026-01-01T00:00:00.000Z', screenshot }],
  findings,
});

describe('accessibility exports', () => {
  it('CSV: a row per finding, quoted where needed, formulas defused', () => {
    const csv = renderCsv(content([finding('f1'), finding('f2', { element: { selector: '#a', text: '=HYPERLINK("x")', html: null, bounds: { x: 0, y: 0, width: 1, height: 1 } }, triage: { status: 'wont_fix', by: 7, reason: 'brand, approved', at: '2026-01-02T00:00:00.000Z' } })]));
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('f1,s,http://127.0.0.1/p,image-alt,critical,1.1.1,Images must have alternative text,#logo,,"10,20,30,40",fp-f1,open,,,,https://example.test/image-alt');
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toContain('wont_fix,7,"brand, approved",2026-01-02T00:00:00.000Z');
  });

  it('JSON: the audit, its scans without screenshot bytes, every finding', () => {
    const doc = JSON.parse(renderJson(content([finding('f1')], Buffer.from('png'))));
    expect(doc.findings.map((f: FindingView) => f.id)).toEqual(['f1']);
    expect(doc.scans[0].screenshot).toBeUndefined();
  });

  it('HTML: escapes what pages and users wrote, inlines the screenshot and places marks in percent of the screen', () => {
    const html = renderHtml(content([finding('f1', { element: { selector: '<script>alert(1)</script>', text: '', html: null, bounds: { x: 10, y: 20, width: 30, height: 40 } } })], Buffer.from('png')), '2026-01-03T00:00:00.000Z');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Release &lt;1&gt;');
    expect(html).toContain(`src="data:image/png;base64,${Buffer.from('png').toString('base64')}"`);
    expect(html).toContain('left:10.000%;top:10.000%;width:30.000%;height:20.000%');
  });
});
