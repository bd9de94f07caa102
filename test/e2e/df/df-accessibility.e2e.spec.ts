import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { PNG_1X1, signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Accessibility audits end to end on real Chromium: axe-core injected into a page served on
 * 127.0.0.1 with four known violations, a fixed version of it, triage carried between audits,
 * exports (the HTML report opened in Chromium), and another company's view of all of it.
 */
const ADMIN = { email: 'a11y-admin@example.com', password: 'a11y-password-1' };
const DEVICE = 'Desktop (a11y)';
let server: TestServer;
let site: { url: string; fixed: boolean; close(): Promise<void> };
let token: string;
let other: SignedUpCompany;
let sessionId: string;
let tmp: string;

const logo = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
const page = (fixed: boolean) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Corner shop</title><style>body{font-family:sans-serif;background:#fff;color:#111;margin:16px} #notice{color:${fixed ? '#333' : '#c4c4c4'}}
#cart{width:64px;height:40px} #logo{width:48px;height:48px}</style></head>
<body><main><h1>Corner shop</h1>
<img id="logo" src="${logo}"${fixed ? ' alt="Corner shop logo"' : ''}>
<p id="notice">Free delivery on every order this week</p>
<button id="cart"${fixed ? '>Cart' : '>'}</button>
<p id="intro">Welcome to the shop.</p><p id="${fixed ? 'outro' : 'intro'}">Thank you for visiting.</p>
<iframe id="help" title="Help" style="width:200px;height:100px;border:0" srcdoc="<!doctype html><html lang=&quot;en&quot;><title>Help</title><body style=&quot;margin:0&quot;><img id=&quot;badge&quot; src=&quot;${logo}&quot; style=&quot;width:32px;height:32px;margin:10px&quot;${fixed ? ' alt=&quot;Trusted shop&quot;' : ''}></body></html>"></iframe>
</main></body></html>`;

async function startSite() {
  const state = { fixed: false };
  const s: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(state.fixed)));
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const address = s.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/shop`,
    get fixed() {
      return state.fixed;
    },
    set fixed(v: boolean) {
      state.fixed = v;
    },
    close: () => new Promise<void>((resolve) => s.close(() => resolve())),
  };
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'a11y-e2e-'));
  site = await startSite();
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'a11y-node', heartbeatMs: 500, devices: [{ provider: 'browser', name: DEVICE, profile: 'desktop', width: 800, height: 600 }] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  other = await signUpCompany(server.url, 'a11y-other');
  const deviceId = await eventually(async () => (await api('GET', '/devices')).body.content?.[0]?.id as string | undefined, { what: 'the browser device' });
  const created = await api('POST', '/sessions', { deviceId, name: 'a11y e2e' });
  expect(created.status).toBe(201);
  sessionId = created.body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await site?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const api = (method: string, path: string, body?: unknown, as = token) => http(server.url, method, `/df/api${path}`, { token: as, ...(body !== undefined ? { body } : {}) });
const open = async (fixed: boolean) => {
  site.fixed = fixed;
  const r = await api('POST', `/sessions/${sessionId}/device/control`, { action: 'openUrl', url: site.url });
  expect(r.status).toBe(200);
};
const startAudit = async (name: string) => {
  const r = await api('POST', `/sessions/${sessionId}/accessibility/audits`, { name });
  expect(r.status).toBe(201);
  return r.body as { id: string };
};
const scan = async (auditId: string) => {
  const r = await api('POST', `/sessions/${sessionId}/accessibility/audits/${auditId}/scans`);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; findings: Finding[]; engine: string; url: string };
};
type Finding = { id: string; ruleId: string; impact: string; wcag: string[]; element: { selector: string; html: string | null; bounds: { x: number; y: number; width: number; height: number } }; fingerprint: string; triage: { status: string; by: number | null; reason: string | null } };

const state: { first?: string; firstScan?: string; second?: string; third?: string; findings?: Finding[]; exports: Record<string, string> } = { exports: {} };
const VIOLATIONS = ['button-name', 'color-contrast', 'duplicate-id', 'image-alt'];
/** One finding each, and two for image-alt (the page's logo and the frame's badge). */
const FINDING_RULES = ['button-name', 'color-contrast', 'duplicate-id', 'image-alt', 'image-alt'];

describe('accessibility audits on a browser device', () => {
  it('scans a page with four known violations (one of them also inside a frame) into findings for exactly those rules and elements', { timeout: 60_000 }, async () => {
    await open(false);
    const audit = await startAudit('release 1');
    expect(audit).toMatchObject({ name: 'release 1', sessionId, platform: 'web', status: 'in_progress', scanCount: 0, completedAt: null });
    const result = await scan(audit.id);
    expect(result.engine).toMatch(/^axe-core 4\./);
    expect(result.url).toBe(site.url);
    const rules = [...new Set(result.findings.map((f) => f.ruleId))].sort();
    expect(rules).toEqual(VIOLATIONS);
    const by = (rule: string) => result.findings.filter((f) => f.ruleId === rule);
    // The frame's image too: axe-core ran in every frame.
    expect(by('image-alt').map((f) => f.element.selector)).toEqual(['#logo', '#help | #badge']);
    expect(by('color-contrast').map((f) => f.element.selector)).toEqual(['#notice']);
    expect(by('button-name').map((f) => f.element.selector)).toEqual(['#cart']);
    expect(by('duplicate-id')).toHaveLength(1);
    expect(by('duplicate-id')[0]!.element.html).toContain('id="intro"');
    expect(by('image-alt')[0]).toMatchObject({ impact: 'critical', wcag: ['1.1.1'], triage: { status: 'open', by: null } });
    expect(by('color-contrast')[0]!.wcag).toContain('1.4.3');
    // Bounds are where the element is on the screenshot: the 48x48 logo, the 64x40 button.
    expect(by('image-alt')[0]!.element.bounds).toMatchObject({ width: 48, height: 48 });
    expect(by('button-name')[0]!.element.bounds).toMatchObject({ width: 64, height: 40 });
    // An element in the frame is placed on the screen: the frame's position plus its own.
    const frameImage = by('image-alt')[1]!.element.bounds;
    expect(frameImage).toMatchObject({ width: 32, height: 32 });
    expect(frameImage.y).toBeGreaterThan(by('button-name')[0]!.element.bounds.y);
    const got = await api('GET', `/accessibility/audits/${audit.id}`);
    expect(got.body).toMatchObject({ scanCount: 1, findingCounts: { critical: 3, serious: 1, minor: 1, moderate: 0 } });
    const shot = await fetch(new URL(`/df/api/accessibility/audits/${audit.id}/scans/${result.id}/screenshot`, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(shot.status).toBe(200);
    expect(PNG.sync.read(Buffer.from(await shot.arrayBuffer())).width).toBe(800);
    // The scan kept the screen's UI tree too: the page's button is in it.
    const tree = await api('GET', `/accessibility/audits/${audit.id}/scans/${result.id}/ui-tree`);
    expect(tree.status).toBe(200);
    expect(tree.body.url).toBe(site.url);
    expect(JSON.stringify(tree.body.root)).toContain('"id":"cart"');
    state.first = audit.id;
    state.firstScan = result.id;
    state.findings = result.findings;
  });

  it('triages a finding with who and why, and a completed audit takes no more scans', async () => {
    const contrast = state.findings!.find((f) => f.ruleId === 'color-contrast')!;
    const triaged = await api('PATCH', `/accessibility/findings/${contrast.id}/triage`, { status: 'wont_fix', reason: 'brand colour, approved' });
    expect(triaged.status).toBe(200);
    expect(triaged.body.triage).toMatchObject({ status: 'wont_fix', reason: 'brand colour, approved' });
    expect(triaged.body.triage.by).toEqual(expect.any(Number));
    expect(triaged.body.triage.at).toEqual(expect.any(String));
    expect((await api('PATCH', `/accessibility/findings/${contrast.id}/triage`, { status: 'ignored' })).status).toBe(400);
    const done = await api('POST', `/sessions/${sessionId}/accessibility/audits/${state.first}/complete`);
    expect(done.body).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    const again = await api('POST', `/sessions/${sessionId}/accessibility/audits/${state.first}/scans`);
    expect([again.status, errorCode(again)]).toEqual([409, 'AUDIT_COMPLETED']);
  });

  it('a fixed version of the page, scanned in a second audit, compares as every finding fixed and nothing new', { timeout: 60_000 }, async () => {
    await open(true);
    const audit = await startAudit('release 2');
    const result = await scan(audit.id);
    expect(result.findings).toEqual([]);
    await api('POST', `/sessions/${sessionId}/accessibility/audits/${audit.id}/complete`);
    const compared = await api('GET', `/accessibility/audits/${audit.id}/compare?with=${state.first}`);
    expect(compared.status).toBe(200);
    expect(compared.body.new).toEqual([]);
    expect(compared.body.unchanged).toEqual([]);
    expect(compared.body.fixed.map((f: Finding) => f.ruleId).sort()).toEqual(FINDING_RULES);
    expect(compared.body.fixed.map((f: Finding) => f.id).sort()).toEqual(state.findings!.map((f) => f.id).sort());
    state.second = audit.id;
  });

  it('carries triage to the same finding in a later audit, and compare sees it unchanged', { timeout: 60_000 }, async () => {
    await open(false);
    const audit = await startAudit('release 3');
    const result = await scan(audit.id);
    const contrast = result.findings.find((f) => f.ruleId === 'color-contrast')!;
    const before = state.findings!.find((f) => f.ruleId === 'color-contrast')!;
    expect(contrast.fingerprint).toBe(before.fingerprint);
    expect(contrast.id).not.toBe(before.id);
    expect(contrast.triage).toMatchObject({ status: 'wont_fix', reason: 'brand colour, approved' });
    expect(result.findings.filter((f) => f.ruleId !== 'color-contrast').every((f) => f.triage.status === 'open')).toBe(true);
    const compared = await api('GET', `/accessibility/audits/${audit.id}/compare?with=${state.first}`);
    expect(compared.body.new).toEqual([]);
    expect(compared.body.fixed).toEqual([]);
    expect(compared.body.unchanged).toHaveLength(5);
    const back = await api('GET', `/accessibility/audits/${audit.id}/compare?with=${state.second}`);
    expect(back.body.new.map((f: Finding) => f.ruleId).sort()).toEqual(FINDING_RULES);
    state.third = audit.id;
  });

  it('lists reports by session, state and page, newest first', async () => {
    const all = await api('GET', '/accessibility/audits');
    expect(all.body.map((a: { id: string }) => a.id)).toEqual([state.third, state.second, state.first]);
    const open = await api('GET', '/accessibility/audits?status=in_progress');
    expect(open.body.map((a: { id: string }) => a.id)).toEqual([state.third]);
    const paged = await api('GET', '/accessibility/audits/page?size=2&page=1');
    expect(paged.body).toMatchObject({ page: 1, size: 2, totalElements: 3, totalPages: 2 });
    expect(paged.body.content.map((a: { id: string }) => a.id)).toEqual([state.first]);
    const ofSession = await api('GET', `/sessions/${sessionId}/accessibility/audits`);
    expect(ofSession.body).toHaveLength(3);
    expect((await api('GET', '/accessibility/audits?platform=android')).body).toEqual([]);
    expect((await api('GET', '/accessibility/audits?status=bogus')).status).toBe(400);
  });

  const exportOf = async (auditId: string, format: string) => {
    const requested = await api('POST', `/accessibility/audits/${auditId}/exports`, { format });
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ id: expect.any(String), state: expect.stringMatching(/running|succeeded/) });
    const done = await eventually(async () => {
      const r = await api('GET', `/accessibility/audits/${auditId}/exports/${requested.body.id}`);
      return r.body.state === 'succeeded' ? r.body : undefined;
    }, { what: `the ${format} export` });
    expect(done.url).toBe(`/df/api/accessibility/audits/${auditId}/exports/${done.id}/download`);
    state.exports[format] = done.id;
    const res = await fetch(new URL(done.url, server.url), { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return { res, text: await res.text() };
  };

  it('exports CSV and JSON holding every finding', async () => {
    const findings = (await api('GET', `/accessibility/audits/${state.first}/findings`)).body as Finding[];
    expect(findings).toHaveLength(5);
    const csv = await exportOf(state.first!, 'csv');
    expect(csv.res.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('findingId,scanId,url,ruleId,impact,wcag,description,selector,text,bounds,fingerprint,triageStatus,triageBy,triageReason,triageAt,helpUrl');
    expect(lines).toHaveLength(1 + findings.length);
    for (const f of findings) expect(lines.some((l) => l.startsWith(`${f.id},${state.firstScan},${site.url},${f.ruleId},${f.impact},`))).toBe(true);
    expect(csv.text).toContain('wont_fix');
    const json = await exportOf(state.first!, 'json');
    const doc = JSON.parse(json.text);
    expect(doc.audit.id).toBe(state.first);
    expect(doc.findings.map((f: Finding) => f.id).sort()).toEqual(findings.map((f) => f.id).sort());
    expect(doc.scans).toHaveLength(1);
  });

  it('exports an HTML report that renders in Chromium with the screenshot, the marked elements and every finding', { timeout: 60_000 }, async () => {
    const html = await exportOf(state.first!, 'html');
    const file = join(tmp, 'report.html');
    writeFileSync(file, html.text);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const p = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      await p.goto(`file://${file}`);
      const rows = await p.$$eval('tr.finding', (trs) => trs.map((tr) => tr.getAttribute('data-rule')));
      expect(rows.sort()).toEqual(FINDING_RULES);
      expect(await p.textContent('h1')).toBe('Accessibility report: release 1');
      expect(await p.$eval('.shot img', (img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(800);
      const marks = await p.$$eval('.mark', (ms) => ms.map((m) => m.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })));
      expect(marks).toHaveLength(5);
      const shot = PNG.sync.read(await p.screenshot({ path: join(tmp, 'report.png') }));
      // The first mark's border is drawn in its impact's colour on the rendered page.
      const critical = [0xb0, 0x00, 0x20];
      const first = marks[0]!;
      const x = Math.round(first.x + 1);
      const y = Math.round(first.y + first.height / 2);
      const i = (y * shot.width + x) * 4;
      expect([shot.data[i], shot.data[i + 1], shot.data[i + 2]]).toEqual(critical);
    } finally {
      await browser.close();
    }
  });

  it('shows every audit, scan, triage and export in the audit history', async () => {
    const r = await http(server.url, 'GET', `/api/v1/audit/events?resourceType=accessibility-audit&resourceId=${state.first}&size=50`, { token });
    expect(r.status).toBe(200);
    const types = r.body.content.map((e: { eventType: string }) => e.eventType);
    for (const t of ['AccessibilityAuditStarted', 'AccessibilityScanRecorded', 'AccessibilityFindingTriaged', 'AccessibilityAuditCompleted', 'AccessibilityExportRequested', 'AccessibilityExportFinished']) expect(types).toContain(t);
  });

  it('answers another company 404 for every audit, scan, finding and export', async () => {
    const t = other.token;
    const a = state.first!;
    const f = state.findings![0]!.id;
    const e = state.exports.csv!;
    const paths: [string, string, unknown?][] = [
      ['GET', `/accessibility/audits/${a}`],
      ['GET', `/accessibility/audits/${a}/compare?with=${state.second}`],
      ['GET', `/accessibility/audits/${state.second}/compare?with=${a}`],
      ['GET', `/accessibility/audits/${a}/scans`],
      ['GET', `/accessibility/audits/${a}/scans/${state.firstScan}`],
      ['GET', `/accessibility/audits/${a}/scans/${state.firstScan}/screenshot`],
      ['GET', `/accessibility/audits/${a}/scans/${state.firstScan}/ui-tree`],
      ['GET', `/accessibility/audits/${a}/findings`],
      ['GET', `/accessibility/findings/${f}`],
      ['PATCH', `/accessibility/findings/${f}/triage`, { status: 'false_positive' }],
      ['POST', `/accessibility/audits/${a}/exports`, { format: 'csv' }],
      ['GET', `/accessibility/audits/${a}/exports/${e}`],
      ['GET', `/accessibility/audits/${a}/exports/${e}/download`],
      ['GET', `/sessions/${sessionId}/accessibility/audits`],
      ['POST', `/sessions/${sessionId}/accessibility/audits`, {}],
      ['POST', `/sessions/${sessionId}/accessibility/audits/${state.third}/scans`],
      ['POST', `/sessions/${sessionId}/accessibility/audits/${state.third}/complete`],
      ['POST', `/accessibility/audits`, { sessionId }],
    ];
    for (const [method, path, body] of paths) {
      const r = await api(method, path, body, t);
      expect([method, path, r.status]).toEqual([method, path, 404]);
    }
    expect((await api('GET', '/accessibility/audits', undefined, t)).body).toEqual([]);
    expect((await api('GET', '/accessibility/audits/page', undefined, t)).body.totalElements).toBe(0);
    // Nothing of theirs changed the finding.
    expect((await api('GET', `/accessibility/findings/${f}`)).body.triage.status).not.toBe('false_positive');
  });

  it('audits a list of URLs stand-alone on a free browser device, in a session of its own that ends with it', { timeout: 90_000 }, async () => {
    site.fixed = false;
    const busy = await api('POST', '/accessibility/audits', { urls: [site.url] });
    expect([busy.status, errorCode(busy)]).toEqual([409, 'DEVICE_UNAVAILABLE']);
    expect((await api('POST', '/accessibility/audits', { urls: ['ftp://127.0.0.1/x'] })).status).toBe(400);
    expect((await api('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
    const created = await api('POST', '/accessibility/audits', { urls: [site.url, `${site.url}?again=1`], name: 'nightly' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'nightly', platform: 'web', status: 'in_progress' });
    const done = await eventually(async () => {
      const r = await api('GET', `/accessibility/audits/${created.body.id}`);
      return r.body.status === 'completed' ? r.body : undefined;
    }, { what: 'the URL audit', timeoutMs: 60_000 });
    expect(done).toMatchObject({ scanCount: 2, findingCounts: { critical: 6, serious: 2, minor: 2 } });
    const scans = (await api('GET', `/accessibility/audits/${done.id}/scans`)).body;
    expect(scans.map((s: { url: string }) => s.url)).toEqual([site.url, `${site.url}?again=1`]);
    const session = await api('GET', `/sessions/${done.sessionId}`);
    expect(session.body).toMatchObject({ status: 'ended', type: 'automation', endReason: 'accessibility-audit-finished' });
    // The page is one page: the same findings, by fingerprint, as the first audit's.
    const compared = await api('GET', `/accessibility/audits/${done.id}/compare?with=${state.first}`);
    expect([compared.body.new.length, compared.body.fixed.length, compared.body.unchanged.length]).toEqual([0, 0, 5]);
  });
});
