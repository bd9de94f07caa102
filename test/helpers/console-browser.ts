import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { eventually } from '#test/helpers/df-farm.js';
import { http } from '#test/helpers/server.js';

/**
 * What the console's end-to-end files share: Debian's Chromium driven by playwright-core, axe-core
 * run in the page, uncaught page errors collected, and signing in through the form.
 */
export const CHROMIUM = '/usr/lib/chromium/chromium';
export const VIEWPORT = { width: 1280, height: 800 };

declare const window: unknown;
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Builds the console when its bundle is missing or older than its sources, then starts Chromium. */
export async function launchBrowser(): Promise<Browser> {
  execFileSync(process.execPath, ['scripts/build-console.mjs'], { stdio: 'inherit' });
  return chromium.launch({ executablePath: CHROMIUM });
}

/** axe-core in the page: no critical or serious violation. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as { axe: { run: (o: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({
      resultTypes: ['violations'],
    });
    return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `axe on ${what}`).toEqual([]);
}

/** Uncaught errors of the pages opened with openPage; a file's afterEach expects none. */
export const pageErrors: string[] = [];

export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

/** A new browser context signed in through the sign-in form, on /devices. */
export async function signedIn(browser: Browser, base: string, login: string, password: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORT, ...options });
  // Waits are for conditions; a busy machine may take longer than Playwright's 30 s to reach them.
  context.setDefaultTimeout(90_000);
  const page = await openPage(context);
  await page.goto(`${base}/sign-in`);
  await signInThroughPage(page, login, password);
  await page.waitForURL((u) => u.pathname === '/devices');
  return { context, page };
}

export async function signInThroughPage(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel('E-mail or username').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The id of an available device of the company (the in-process host's come online shortly after start). */
export function availableDevice(base: string, token: string): Promise<string> {
  return eventually(
    async () => {
      const d = await http(base, 'GET', '/df/api/devices?size=10', { token });
      return (d.body.content as { id: string; status: string }[]).find((x) => x.status === 'available')?.id;
    },
    { timeoutMs: 60_000, what: 'an available device' },
  );
}

/**
 * On a touch screen: opens an available device's page, taps "Start a session", and waits on the session
 * page until the live screen has drawn a frame. Returns the screen.
 */
export async function startSessionByTap(page: Page, base: string, token: string): Promise<Locator> {
  await page.goto(`${base}/devices/${await availableDevice(base, token)}`);
  await page.getByRole('button', { name: 'Start a session' }).tap();
  await page.waitForURL(/\/sessions\/[^/]+$/);
  const canvas = page.locator('canvas');
  await expect.poll(() => canvas.evaluate((c) => Number((c as unknown as { dataset: { frames?: string } }).dataset.frames ?? 0)), { timeout: 30_000 }).toBeGreaterThan(0);
  return canvas;
}
