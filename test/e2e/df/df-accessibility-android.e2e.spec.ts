import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * Accessibility rules on an Android device end to end: the adbd test device reached by Debian's real
 * adb server, a screen (UI hierarchy and framebuffer) with a small unlabelled button and low-contrast
 * text, scanned through the started server.
 */
const ADMIN = { email: 'a11y-android@example.com', password: 'a11y-android-1' };
let server: TestServer;
let adb: AdbServer;
let peer: AdbdPeer;
let token: string;
let sessionId: string;

const WHITE: [number, number, number] = [255, 255, 255];
const node = (a: { cls: string; id?: string; text?: string; desc?: string; clickable?: boolean; bounds: [number, number, number, number] }) =>
  `<node index="0" text="${a.text ?? ''}" resource-id="${a.id ?? ''}" class="${a.cls}" package="com.example.shop" content-desc="${a.desc ?? ''}" checkable="false" checked="false" clickable="${a.clickable ? 'true' : 'false'}" enabled="true" focusable="${a.clickable ? 'true' : 'false'}" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[${a.bounds[0]},${a.bounds[1]}][${a.bounds[2]},${a.bounds[3]}]" />`;

/** The shop's screen: a readable title, faint terms, a tiny unlabelled close button, a large labelled button. */
function drawShop(p: AdbdPeer) {
  p.foreground = 'com.example.shop';
  p.uiNodes = [
    node({ cls: 'android.widget.TextView', id: 'com.example.shop:id/title', text: 'Welcome', bounds: [20, 20, 340, 80] }),
    node({ cls: 'android.widget.TextView', id: 'com.example.shop:id/terms', text: 'Terms apply', bounds: [20, 100, 340, 160] }),
    node({ cls: 'android.widget.ImageButton', id: 'com.example.shop:id/close', clickable: true, bounds: [300, 200, 340, 240] }),
    node({ cls: 'android.widget.Button', id: 'com.example.shop:id/go', text: 'Continue', clickable: true, bounds: [20, 400, 340, 520] }),
  ].join('');
  // Title: black glyphs on white (21:1). Terms: light grey glyphs on white (about 1.7:1).
  p.fillRect(20, 20, 320, 60, WHITE);
  p.fillRect(30, 35, 120, 30, [0, 0, 0]);
  p.fillRect(20, 100, 320, 60, WHITE);
  p.fillRect(30, 115, 120, 30, [200, 200, 200]);
  // Close button: a dark square. Continue: white glyphs on the dark background (about 13:1).
  p.fillRect(300, 200, 40, 40, [90, 90, 90]);
  p.fillRect(60, 440, 200, 40, WHITE);
}

beforeAll(async () => {
  let port: number;
  ({ peer, port } = await startPeer({ model: 'Peer Phone A11y', width: 360, height: 640 }));
  // 320 dpi: a dp is two pixels, so 48 dp are 96 pixels.
  peer.properties['ro.sf.lcd_density'] = '320';
  adb = await startAdbServer();
  await adb.connect(port);
  server = await startTestServer({
    BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
    AGENT_CONFIG: writeAgentConfig({ nodeName: 'a11y-android', heartbeatMs: 500, android: { adbHost: '127.0.0.1', adbPort: adb.port }, devices: [] }),
  });
  token = (await http(server.url, 'POST', '/api/v1/auth/login', { body: ADMIN })).body.token;
  const deviceId = await eventually(async () => (await api('GET', '/devices?platform=android')).body.content?.[0]?.id as string | undefined, { what: 'the android device', timeoutMs: 30_000 });
  const created = await api('POST', '/sessions', { deviceId, name: 'a11y android' });
  expect(created.status).toBe(201);
  sessionId = created.body.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await adb?.stop();
  await peer?.close();
});

const api = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });
type Finding = { id: string; ruleId: string; impact: string; wcag: string[]; description: string; element: { selector: string; text: string; bounds: unknown }; fingerprint: string; triage: { status: string; reason: string | null } };

async function auditOnce(name: string) {
  const audit = await api('POST', `/sessions/${sessionId}/accessibility/audits`, { name });
  expect(audit.status).toBe(201);
  expect(audit.body.platform).toBe('android');
  const scan = await api('POST', `/sessions/${sessionId}/accessibility/audits/${audit.body.id}/scans`);
  expect(scan.status, JSON.stringify(scan.body)).toBe(201);
  return { auditId: audit.body.id as string, scan: scan.body as { engine: string; url: string; findings: Finding[]; hasScreenshot: boolean } };
}

describe('accessibility rules on an android device', () => {
  let first: { auditId: string; scan: { findings: Finding[] } };

  it('finds the small unlabelled button (touch target and label) and the low-contrast text, and nothing else', { timeout: 60_000 }, async () => {
    drawShop(peer);
    first = await auditOnce('shop 1.0');
    const { scan } = first as Awaited<ReturnType<typeof auditOnce>>;
    expect(scan.engine).toBe('android-rules 1');
    expect(scan.url).toBe('android-app://com.example.shop');
    expect(scan.hasScreenshot).toBe(true);
    const tree = await api('GET', `/accessibility/audits/${first.auditId}/scans/${(scan as unknown as { id: string }).id}/ui-tree`);
    expect(tree.status).toBe(200);
    expect(JSON.stringify(tree.body.root)).toContain('com.example.shop:id/close');
    const summary = scan.findings.map((f) => [f.ruleId, f.element.selector]).sort();
    expect(summary).toEqual([
      ['missing-label', 'ImageButton#com.example.shop:id/close'],
      ['text-contrast', 'TextView#com.example.shop:id/terms'],
      ['touch-target-size', 'ImageButton#com.example.shop:id/close'],
    ]);
    const rule = (id: string) => scan.findings.find((f) => f.ruleId === id)!;
    expect(rule('touch-target-size')).toMatchObject({ impact: 'serious', wcag: ['2.5.5', '2.5.8'], description: 'Touch target is 20x20 dp; at least 48x48 dp is needed', element: { bounds: { x: 300, y: 200, width: 40, height: 40 } } });
    expect(rule('missing-label')).toMatchObject({ impact: 'critical', wcag: ['1.1.1', '4.1.2'] });
    expect(rule('text-contrast')).toMatchObject({ impact: 'serious', wcag: ['1.4.3'], element: { text: 'Terms apply' } });
    expect(rule('text-contrast').description).toMatch(/^Text contrast is 1\.6\d:1/);
    // The scan dumped the hierarchy and captured the screen on the device itself.
    expect(peer.record.commands.some((c) => c.startsWith('uiautomator dump'))).toBe(true);
  });

  it('carries triage to the same element in a later audit of the app', { timeout: 60_000 }, async () => {
    const label = first.scan.findings.find((f) => f.ruleId === 'missing-label')!;
    const triaged = await api('PATCH', `/accessibility/findings/${label.id}/triage`, { status: 'confirmed', reason: 'ticket SHOP-12' });
    expect(triaged.status).toBe(200);
    await api('POST', `/sessions/${sessionId}/accessibility/audits/${first.auditId}/complete`);
    const later = await auditOnce('shop 1.1');
    const again = later.scan.findings.find((f) => f.ruleId === 'missing-label')!;
    expect(again.fingerprint).toBe(label.fingerprint);
    expect(again.triage).toMatchObject({ status: 'confirmed', reason: 'ticket SHOP-12' });
    expect(later.scan.findings.find((f) => f.ruleId === 'text-contrast')!.triage.status).toBe('open');
  });

  it('a fixed screen compares as those findings fixed and nothing new', { timeout: 60_000 }, async () => {
    peer.uiNodes = [
      node({ cls: 'android.widget.TextView', id: 'com.example.shop:id/title', text: 'Welcome', bounds: [20, 20, 340, 80] }),
      node({ cls: 'android.widget.TextView', id: 'com.example.shop:id/terms', text: 'Terms apply', bounds: [20, 100, 340, 160] }),
      node({ cls: 'android.widget.ImageButton', id: 'com.example.shop:id/close', desc: 'Close', clickable: true, bounds: [240, 200, 340, 300] }),
    ].join('');
    peer.fillRect(30, 115, 120, 30, [40, 40, 40]);
    const fixed = await auditOnce('shop 1.2');
    expect(fixed.scan.findings).toEqual([]);
    const compared = await api('GET', `/accessibility/audits/${fixed.auditId}/compare?with=${first.auditId}`);
    expect(compared.body.new).toEqual([]);
    expect(compared.body.fixed.map((f: Finding) => f.ruleId).sort()).toEqual(['missing-label', 'text-contrast', 'touch-target-size']);
  });
});
