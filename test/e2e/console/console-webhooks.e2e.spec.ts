import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookStream } from '#events/organization/webhooks.js';
import { SecretBox } from '#shared/auth/index.js';
import { commandContext, eventMetadata } from '#shared/es/index.js';
import { client, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { expectAccessible, launchBrowser, pageErrors, signedIn } from '#test/helpers/console-browser.js';

/**
 * The Webhooks page of the console in Chromium, checked with axe: add an endpoint (its secret shown
 * once), change its events, disable and enable it, remove it; a delivery's attempts listed with the
 * request each sent, and sent again; a ping; the secret rotated (the new one shown once, copied, and
 * the old one's expiry); a secret no configured key opens shown as one that must be rotated, until it is. Every change is read back through the API, and each delivery is a real POST to a receiver
 * on loopback (a test session of the test-management module finished, the event that causes it).
 */
let server: TestServer;
let browser: Browser;
let admin: SignedUpCompany;
let org: Client;
let context: BrowserContext;
let page: Page;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
declare const navigator: { clipboard: { readText(): Promise<string> } };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(received.length === 1 ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  server = await startTestServer({ WEBHOOK_RETRY_SCHEDULE: '1d' });
  admin = await signUpCompany(server.url, 'console-hooks');
  org = client(server.url, admin.token);
  browser = await launchBrowser();
  ({ context, page } = await signedIn(browser, server.url, admin.email, admin.password));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
}, 120_000);

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const hooks = async () => (await org.get(`/workspaces/${admin.workspaceId}/webhooks`)).body as { id: number; url: string; events: string[]; enabled: boolean }[];

/** Finishes a test session of the workspace through `/v1`: the `test_session.finished` event. */
async function finishATestSession(): Promise<void> {
  const v1 = (method: string, path: string, body?: unknown) => http(server.url, method, `/v1${path}`, { token: admin.token, headers: { 'x-workspace-id': String(admin.workspaceId) }, ...(body ? { body } : {}) });
  const project = await v1('POST', '/projects', { name: 'Hooks', key: 'HOOKS' });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  const session = await v1('POST', '/test-sessions', { projectId: project.body.data.id, name: 'Nightly' });
  expect(session.status, JSON.stringify(session.body)).toBe(201);
  for (const status of ['in_progress', 'completed']) {
    const moved = await v1('PUT', `/test-sessions/${session.body.data.id}`, { status });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  }
}

describe('the Webhooks page', { timeout: 180_000 }, () => {
  it('adds a webhook and shows its secret once, edits its events, disables and enables it', async () => {
    await page.goto(`${server.url}/org/webhooks`);
    await page.getByRole('heading', { name: /Webhooks of/ }).waitFor();
    await expectAccessible(page, 'webhooks, none yet');
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Endpoint URL').fill(receiverUrl);
    await form.getByRole('checkbox', { name: /test_session\.finished/ }).check();
    await form.getByRole('button', { name: 'Add the webhook' }).click();
    const secret = await page.getByLabel('New webhook secret').textContent();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page, 'webhooks, one added');
    const [hook] = await hooks();
    expect(hook).toMatchObject({ url: receiverUrl, events: ['session.ended', 'test_session.finished'], enabled: true });

    const row = page.getByRole('row').filter({ hasText: receiverUrl });
    await row.getByRole('button', { name: 'Edit events' }).click();
    const events = row.getByRole('form', { name: `Events of ${receiverUrl}` });
    await events.getByRole('checkbox', { name: /session\.ended/ }).first().uncheck();
    await expectAccessible(page, 'webhooks, editing events');
    await events.getByRole('button', { name: 'Save the events' }).click();
    await expect.poll(async () => (await hooks())[0]!.events).toEqual(['test_session.finished']);

    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await hooks())[0]!.enabled).toBe(false);
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await hooks())[0]!.enabled).toBe(true);
  });

  it("lists a delivery's attempts and sends it again", async () => {
    await finishATestSession();
    const row = page.getByRole('row').filter({ hasText: receiverUrl });
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('region', { name: `Deliveries to ${receiverUrl}` });
    // The first attempt is answered 503; the next is a day away, so only "Send again" delivers it.
    await log.getByRole('cell', { name: /503 in \d+ ms \(HTTP 503\)/ }).waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'webhooks, a delivery log');
    await log.getByRole('button', { name: /Send again the test_session\.finished delivery/ }).click();
    await log.getByRole('cell', { name: 'delivered', exact: true }).waitFor({ timeout: 15_000 });
    expect(received).toHaveLength(2);
    // A session completed without results: every status counted, none.
    expect(JSON.parse(received[1]!.body)).toMatchObject({ type: 'test_session.finished', data: { name: 'Nightly', results: { passed: 0, failed: 0, blocked: 0, skipped: 0, retest: 0, total: 0 } } });

    // Each attempt unfolds to the request it sent: the headers the receiver got and the body signed.
    await log.getByText('Request of attempt 2').click();
    const request = log.getByRole('group').filter({ hasText: 'Request of attempt 2' });
    await expect.poll(() => log.getByLabel('Body of attempt 2').textContent()).toBe(received[1]!.body);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      expect(await request.getByRole('definition').filter({ hasText: String(received[1]!.headers[name]) }).count(), name).toBe(1);
    }
    await expectAccessible(page, 'webhooks, an attempt unfolded');
  });

  it('pings the endpoint, and rotates its secret: the new one shown once with a copy button, and the old one\'s expiry', async () => {
    const row = page.getByRole('row').filter({ hasText: receiverUrl });
    const before = received.length;
    await row.getByRole('button', { name: `Ping ${receiverUrl}` }).click();
    await page.getByText(`A ping was sent to ${receiverUrl}`).waitFor();
    const log = page.getByRole('region', { name: `Deliveries to ${receiverUrl}` });
    await log.getByRole('row').filter({ hasText: 'webhook.ping' }).getByRole('cell', { name: 'delivered', exact: true }).waitFor({ timeout: 15_000 });
    expect(received).toHaveLength(before + 1);
    expect(JSON.parse(received[before]!.body)).toMatchObject({ type: 'webhook.ping' });

    await row.getByRole('button', { name: `Rotate secret of ${receiverUrl}` }).click();
    const form = page.getByRole('form', { name: `Rotate the secret of ${receiverUrl}` });
    await form.getByLabel('The old secret keeps signing for').selectOption(String(3600));
    await expectAccessible(page, 'webhooks, rotating a secret');
    await form.getByRole('button', { name: 'Rotate the secret' }).click();
    const secret = (await page.getByLabel('Rotated webhook secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const [hook] = (await org.get(`/workspaces/${admin.workspaceId}/webhooks`)).body as { previousSecretExpiresAt: string }[];
    const expires = Date.parse(hook!.previousSecretExpiresAt);
    expect(expires - Date.now()).toBeGreaterThan(3500_000);
    await page.getByText(/The old secret signs too until/).first().waitFor();
    await page.getByRole('button', { name: /^Copy the secret\W+Rotated webhook secret$/ }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await expectAccessible(page, 'webhooks, a secret rotated');

    // The secret shown is the one that signs now.
    await row.getByRole('button', { name: `Ping ${receiverUrl}` }).click();
    await expect.poll(() => received.length).toBe(before + 2);
    const next = received[before + 1]!;
    expect(String(next.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(next.body, next.headers as Record<string, string>)).toMatchObject({ type: 'webhook.ping' });
  });

  it('says a secret no configured key opens must be rotated, until it is', async () => {
    // A rotation recorded by a process with another SECRETS_KEY: this installation cannot open its secret.
    const [hook] = (await org.get(`/workspaces/${admin.workspaceId}/webhooks`)).body as { id: number }[];
    const { store, readModels } = server.process.platform;
    const foreign = new SecretBox(randomBytes(32)).seal(`whsec_${randomBytes(32).toString('base64')}`, `webhook:${hook!.id}:secret`);
    const ctx = commandContext({ now: () => new Date() }, { companyId: admin.companyId, workspaceId: admin.workspaceId });
    await store.append(webhookStream(hook!.id), [{ type: 'WebhookSecretRotated', payload: { webhookId: hook!.id, secret: foreign, overlapEndsAt: new Date().toISOString() }, metadata: eventMetadata(ctx) }], 'any');
    await readModels.waitFor(await store.headPosition(), { names: ['org-webhooks'] });

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: receiverUrl });
    await row.getByText(/Must be rotated/).waitFor();
    await expectAccessible(page, 'webhooks, a secret that must be rotated');
    await row.getByRole('button', { name: `Rotate secret of ${receiverUrl}` }).click();
    const form = page.getByRole('form', { name: `Rotate the secret of ${receiverUrl}` });
    await form.getByRole('button', { name: 'Rotate the secret' }).click();
    expect((await page.getByLabel('Rotated webhook secret').textContent())!.trim()).toMatch(/^whsec_/);
    await expect.poll(() => row.getByText(/Must be rotated/).count()).toBe(0);
    expect(((await org.get(`/workspaces/${admin.workspaceId}/webhooks`)).body as { secretMustBeRotated?: boolean }[])[0]!.secretMustBeRotated).toBeUndefined();
  });

  it('removes a webhook after a confirmation', async () => {
    const row = page.getByRole('row').filter({ hasText: receiverUrl });
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('group', { name: `Remove ${receiverUrl}` }).getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No webhook yet.').waitFor();
    expect(await hooks()).toEqual([]);
  });
});
