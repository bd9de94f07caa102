import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { availableDevice, expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The hosts page's re-scoping and token rotation, and the accessibility report's comparison and
 * export, end to end against the real server in Debian's Chromium.
 */
let server: TestServer;
let browser: Browser;
let admin: SignedUpCompany;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUpCompany(server.url, 'console-df-tools');
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password, { acceptDownloads: true }));
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('hosts: workspaces and a new token', { timeout: 120_000 }, () => {
  it("changes a host's workspaces and issues it a new token shown once", async () => {
    const enrolled = await http(server.url, 'POST', '/df/api/hosts', { token: admin.token, body: { name: 'Rack 12' } });
    expect(enrolled.status).toBe(201);
    const hostId = enrolled.body.id as string;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hosts' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Rack 12' });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('all');

    await row.getByRole('button', { name: 'Change the workspaces of Rack 12' }).click();
    const scope = row.getByRole('form', { name: 'Workspaces of Rack 12' });
    await scope.getByRole('checkbox', { name: 'Default' }).check();
    await expectAccessible(page, 'hosts, re-scoping');
    await scope.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.getByRole('cell').nth(1).textContent()).toBe('Default');
    const host = await http(server.url, 'GET', `/df/api/hosts/${hostId}`, { token: admin.token });
    expect(host.body.workspaceIds).toEqual([admin.workspaceId]);

    // Back to every workspace: nothing chosen.
    await row.getByRole('button', { name: 'Change the workspaces of Rack 12' }).click();
    await scope.getByRole('checkbox', { name: 'Default' }).uncheck();
    await scope.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.getByRole('cell').nth(1).textContent()).toBe('all');
    expect((await http(server.url, 'GET', `/df/api/hosts/${hostId}`, { token: admin.token })).body.workspaceIds).toBeNull();

    await row.getByRole('button', { name: 'New token for Rack 12' }).click();
    await row.getByRole('group', { name: 'Confirm a new token for Rack 12' }).getByRole('button', { name: 'Yes, issue it' }).click();
    const shown = page.getByRole('region', { name: 'New host token' });
    const token = await shown.getByLabel('Token').inputValue();
    expect(token).toMatch(new RegExp(`^dfh_${hostId}_`));
    expect(token).not.toBe(enrolled.body.token);
    expect(await shown.getByRole('heading').textContent()).toBe('A new token for “Rack 12”');
    await expectAccessible(page, 'hosts, a new token');
    await shown.getByRole('button', { name: 'Done' }).click();
    expect(await page.content()).not.toContain(token);
  });
});

describe('accessibility report: compare and export', { timeout: 120_000 }, () => {
  it('compares a report with an earlier one (fixed, new, unchanged) and exports it as CSV', async () => {
    // One address whose page loses its image without a text alternative between the two scans.
    let broken = true;
    const site: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const img = broken ? '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20">' : '';
      res.end(`<!doctype html><html lang="en"><title>Shop</title><main><h1>Shop</h1>${img}<p>Prices</p></main></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
      const deviceId = await availableDevice(server.url, admin.token);
      const session = await http(server.url, 'POST', '/df/api/sessions', { token: admin.token, body: { deviceId } });
      expect(session.status).toBe(201);
      const sid = session.body.id as string;
      const audit = async (name: string) => {
        const open = await http(server.url, 'POST', `/df/api/sessions/${sid}/device/control`, { token: admin.token, body: { action: 'openUrl', url: siteUrl } });
        expect(open.status).toBeLessThan(300);
        const made = await http(server.url, 'POST', `/df/api/sessions/${sid}/accessibility/audits`, { token: admin.token, body: { name } });
        expect(made.status).toBe(201);
        const scan = await http(server.url, 'POST', `/df/api/sessions/${sid}/accessibility/audits/${made.body.id}/scans`, { token: admin.token });
        expect(scan.status).toBe(201);
        return { id: made.body.id as string, rules: (scan.body.findings as { ruleId: string }[]).map((f) => f.ruleId) };
      };
      const before = await audit('Release 1');
      expect(before.rules).toContain('image-alt');
      broken = false;
      const after = await audit('Release 2');
      expect(after.rules).not.toContain('image-alt');
      await http(server.url, 'DELETE', `/df/api/sessions/${sid}`, { token: admin.token });

      await page.goto(`${server.url}/accessibility/${after.id}`);
      await page.getByRole('heading', { name: 'Release 2', level: 1 }).waitFor();
      const compare = page.getByRole('region', { name: 'Compare with another report' });
      await compare.getByLabel('Earlier report').selectOption({ value: before.id });
      await compare.getByRole('button', { name: 'Compare' }).click();
      const fixed = compare.getByRole('region', { name: 'Fixed findings' });
      await expect.poll(() => fixed.textContent()).toContain('image-alt');
      expect(await fixed.getByRole('heading').textContent()).toBe('Fixed since (1)');
      expect(await compare.getByRole('region', { name: 'New findings' }).getByRole('heading').textContent()).toBe('New here (0)');
      const unchanged = after.rules.length;
      expect(await compare.getByRole('region', { name: 'Unchanged findings' }).getByRole('heading').textContent()).toBe(`Unchanged (${unchanged})`);
      await expectAccessible(page, 'accessibility report compared');

      const exporter = page.getByRole('region', { name: 'Export the report' });
      await exporter.getByLabel('Format').selectOption('csv');
      await exporter.getByRole('button', { name: 'Export' }).click();
      const ready = exporter.getByRole('button', { name: 'Download Release-2.csv' });
      await ready.waitFor({ timeout: 30_000 });
      await expectAccessible(page, 'accessibility report with its export ready');
      const [file] = await Promise.all([page.waitForEvent('download'), ready.click()]);
      expect(file.suggestedFilename()).toBe('Release-2.csv');
      const csv = readFileSync((await file.path())!, 'utf8').trim().split(/\r?\n/);
      expect(csv[0]).toMatch(/^findingId,scanId,url,ruleId,/);
      expect(csv).toHaveLength(1 + unchanged);
    } finally {
      await new Promise((resolve) => site.close(resolve));
    }
  });
});

describe('files: a big file goes up in parts', { timeout: 120_000 }, () => {
  it('uploads a 65 MiB file through the multipart flow with a progress bar, tries a failed part again, and the file is ready with its SHA-256', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'console-big-'));
    const bytes = randomBytes(65 * 1024 * 1024);
    const path = join(dir, 'big.bin');
    writeFileSync(path, bytes);
    try {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
      const form = page.getByRole('form', { name: 'Upload a file' });
      await form.getByLabel(/^File/).setInputFiles(path);
      // The network drops the first PUT of part 3 (the storage itself stays real); the page tries it again.
      const part3: string[] = [];
      await page.route(
        (u) => u.searchParams.get('part') === '3' && u.searchParams.has('upload'),
        async (route) => {
          if (route.request().method() !== 'PUT') return route.continue();
          part3.push(part3.length === 0 ? 'dropped' : 'sent');
          return part3.length === 1 ? route.abort('connectionreset') : route.continue();
        },
      );
      // Every value the progress bar takes, and every note under it, recorded in the page as they change.
      await page.evaluate(() => {
        const g = globalThis as unknown as {
          seen: number[];
          notes: string[];
          MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void };
          document: { body: unknown; querySelector(s: string): { value: number; textContent: string } | null };
        };
        g.seen = [];
        g.notes = [];
        new g.MutationObserver(() => {
          const bar = g.document.querySelector('#upload-progress');
          if (bar && g.seen[g.seen.length - 1] !== bar.value) g.seen.push(bar.value);
          const note = g.document.querySelector('#upload-note')?.textContent;
          if (note && g.notes[g.notes.length - 1] !== note) g.notes.push(note);
        }).observe(g.document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      });
      await form.getByRole('button', { name: 'Upload' }).click();
      await page.getByRole('status').filter({ hasText: 'big.bin uploaded.' }).waitFor({ timeout: 60_000 });
      await page.unrouteAll();
      expect(part3).toEqual(['dropped', 'sent']);
      const notes = await page.evaluate(() => (globalThis as unknown as { notes: string[] }).notes);
      expect(notes).toEqual(['Part 3 of 9 failed (the connection failed); trying it again (attempt 2 of 3).']);
      const seen = await page.evaluate(() => (globalThis as unknown as { seen: number[] }).seen);
      // 0, then one step per 8 MiB part (9 parts), the last the whole size.
      expect(seen[0]).toBe(0);
      expect(seen.at(-1)).toBe(bytes.length);
      expect(seen.length).toBeGreaterThanOrEqual(9);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
      const row = page.getByRole('row').filter({ hasText: 'big.bin' });
      await expect.poll(() => row.textContent()).toContain('ready');
      const files = await http(server.url, 'GET', '/df/api/files?search=big.bin', { token: admin.token });
      const file = (files.body.content as { name: string; size: number; sha256: string | null; status: string }[]).find((f) => f.name === 'big.bin')!;
      expect(file.size).toBe(bytes.length);
      expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('hosts: move a device to another host of the company', { timeout: 120_000 }, () => {
  it('moves a device from the hosts page; it is offline until the new host reports it, and the move is audited', async () => {
    const enrolled = await http(server.url, 'POST', '/df/api/hosts', { token: admin.token, body: { name: 'Rack 14' } });
    expect(enrolled.status).toBe(201);
    const devices = await http(server.url, 'GET', '/df/api/devices?size=100', { token: admin.token });
    const device = (devices.body.content as { id: string; name: string; nodeName: string; status: string }[]).find((d) => d.status !== 'offline')!;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hosts' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Rack 14' });
    await row.getByRole('button', { name: 'Move a device to Rack 14' }).click();
    const form = row.getByRole('form', { name: 'Move a device to Rack 14' });
    await form.getByRole('option', { name: `${device.name} (${device.nodeName})` }).waitFor({ state: 'attached' });
    await form.getByLabel('Device').selectOption(device.id);
    await expectAccessible(page, 'hosts, moving a device');
    await form.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('status').filter({ hasText: `${device.name} moved to Rack 14` }).waitFor();
    await expectAccessible(page, 'hosts, a device moved');
    // Rack 14 runs no agent: the device stays offline, and the move is in the audit history.
    expect((await http(server.url, 'GET', `/df/api/devices/${device.id}`, { token: admin.token })).body.status).toBe('offline');
    const audit = await http(server.url, 'GET', `/api/v1/audit/events?deviceId=${device.id}&eventType=DeviceMoved`, { token: admin.token });
    expect(audit.body.content).toMatchObject([{ eventType: 'DeviceMoved', actorId: admin.userId, payload: { toHostId: enrolled.body.id } }]);
  });
});
