import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookStream } from '#events/organization/webhooks.js';
import { SecretBox, secretsKeyFilePath } from '#shared/auth/index.js';
import { commandContext, eventMetadata } from '#shared/es/index.js';
import { tablesHolding } from '#test/helpers/db-search.js';
import { eventually, writeAgentConfig } from '#test/helpers/df-farm.js';
import { client, signUpCompany, type Client, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';
import { startSmtpListener } from '#test/helpers/smtp.js';

/**
 * Webhooks through the started server: a device session ended on a simulated device reaches a
 * receiver on loopback signed as the Standard Webhooks specification says (checked with the
 * `standardwebhooks` package); a receiver answering 500 sees every retry of a short schedule, the
 * delivery log shows each attempt, redelivery sends again, an endpoint that keeps failing is disabled
 * and its creator mailed; another workspace's and another company's endpoints hear nothing; bad input
 * and other tenants' ids are refused with stable codes. Signing secrets are sealed at rest: no table
 * (events included) holds one in clear after a creation or a rotation; a restart with a new
 * SECRETS_KEY (the old one in SECRETS_PREVIOUS_KEYS) seals them again and deliveries still verify; a
 * restart without a key that opens them fails deliveries, saying the secret must be rotated.
 */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: TestServer;
/** The data directory the server restarts on (its own until the first restart). */
let dataDir = '';
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** What each receiver path answers. */
const answers = new Map<string, number>([['/ok', 204], ['/fail', 500], ['/other-company', 204], ['/other-workspace', 204]]);
let a: SignedUpCompany;
let b: SignedUpCompany;
let orgA: Client;
let orgB: Client;
let devices: string[];

const hooksOf = (ws: number) => `/workspaces/${ws}/webhooks`;
const df = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: a.token, ...(body !== undefined ? { body } : {}) });

/** Opens a session on a free device of company A and ends it; returns its id. */
async function endASession(): Promise<string> {
  const device = devices.shift()!;
  const created = await df('POST', '/sessions', { deviceId: device });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect((await df('DELETE', `/sessions/${created.body.id}`)).status).toBe(200);
  return created.body.id as string;
}

const deliveriesOf = async (ws: number, hookId: number) => {
  const res = await orgA.get(`${hooksOf(ws)}/${hookId}/deliveries?size=50`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    content: { id: string; event: string; state: string; attempts: { at: string; status: number | null; durationMs: number; error?: string; response?: string; request?: { headers: Record<string, string>; body: string } }[] }[];
    totalElements: number;
  };
};

const baseEnv = () => ({ SMTP_URL: smtp.url, WEBHOOK_RETRY_SCHEDULE: '100ms,300ms', WEBHOOK_DISABLE_AFTER_FAILURES: '2', WEBHOOK_TIMEOUT: '5s' });

/** Where the database holds this text (events, read models, every table): none of it should be a secret. */
const tablesWith = (text: string) => tablesHolding(server.process.platform.db, text);

/** Stops the server keeping its data and starts it again on them with `env`; signs company A and B in again. */
async function restart(env: Record<string, string>): Promise<void> {
  dataDir = server.dataDir;
  await server.process.stop();
  server = await startTestServer({ ...baseEnv(), AGENT_ENABLED: 'false', DATA_DIR: dataDir, ...env });
  const login = async (c: SignedUpCompany) => (await http(server.url, 'POST', '/api/v1/auth/login', { body: { username: c.email, password: c.password } })).body.token as string;
  orgA = client(server.url, await login(a));
  orgB = client(server.url, await login(b));
}

beforeAll(async () => {
  smtp = await startSmtpListener();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const status = answers.get(req.url ?? '') ?? 404;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 400 ? `receiver says ${status}` : undefined);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  server = await startTestServer({
    ...baseEnv(),
    DF_SESSION_IDLE_TIMEOUT: '1d',
    AGENT_CONFIG: writeAgentConfig({
      nodeName: 'webhooks-node',
      heartbeatMs: 300,
      devices: Array.from({ length: 4 }, (_, i) => ({ provider: 'simulated' as const, name: `Hook device ${i}`, prepareMs: 10 })),
    }),
  });
  a = await signUpCompany(server.url, 'hooks-a');
  b = await signUpCompany(server.url, 'hooks-b');
  orgA = client(server.url, a.token);
  orgB = client(server.url, b.token);
  devices = await eventually(async () => {
    const r = await df('GET', '/devices?status=available&size=10');
    return r.body.totalElements === 4 ? (r.body.content as { id: string }[]).map((d) => d.id) : undefined;
  }, { what: '4 devices', timeoutMs: 60_000 });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await smtp?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhooks', () => {
  let okHook: { id: number; secret: string };
  let failHook: { id: number; secret: string };
  let otherCompanyHook: number;
  let otherWorkspaceHook: number;
  let otherWorkspace: number;

  it('refuses a bad URL or an unknown event with stable codes, and creates nothing', async () => {
    for (const url of ['ftp://example.test/in', 'not a url', 'http://user:pw@example.test/in']) {
      const res = await orgA.post(hooksOf(a.workspaceId), { url, events: ['session.ended'] });
      expect(res.status, url).toBe(400);
      expect(errorCode(res)).toBe('INVALID_WEBHOOK_URL');
    }
    const unknown = await orgA.post(hooksOf(a.workspaceId), { url: `${receiverUrl}/ok`, events: ['session.ended', 'session.exploded'] });
    expect(unknown.status).toBe(400);
    expect(errorCode(unknown)).toBe('UNKNOWN_WEBHOOK_EVENT');
    expect(unknown.body.message).toContain('session.exploded');
    expect((await orgA.get(hooksOf(a.workspaceId))).body).toEqual([]);
  });

  it('creates endpoints showing the secret once', async () => {
    const created = await orgA.post(hooksOf(a.workspaceId), { url: `${receiverUrl}/ok`, events: ['session.ended', 'host.lost'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ url: `${receiverUrl}/ok`, events: ['session.ended', 'host.lost'], enabled: true });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    okHook = { id: created.body.id, secret: created.body.secret };
    const listed = await orgA.get(hooksOf(a.workspaceId));
    expect(listed.body.map((h: { id: number }) => h.id)).toEqual([okHook.id]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect((await orgA.get(`${hooksOf(a.workspaceId)}/${okHook.id}`)).body.secret).toBeUndefined();
    // Sealed at rest: neither the event nor the read model (nor any other table) holds it in clear.
    expect(await tablesWith(okHook.secret.slice('whsec_'.length))).toEqual({});
    expect(await tablesWith('whsec_')).toEqual({});

    const ws = await orgA.post('/workspaces', { name: `Hooks elsewhere ${process.pid}` });
    expect(ws.status, JSON.stringify(ws.body)).toBe(201);
    otherWorkspace = ws.body.id;
    otherWorkspaceHook = (await orgA.post(hooksOf(otherWorkspace), { url: `${receiverUrl}/other-workspace`, events: ['session.ended'] })).body.id;
    otherCompanyHook = (await orgB.post(hooksOf(b.workspaceId), { url: `${receiverUrl}/other-company`, events: ['session.ended'] })).body.id;
    expect(otherWorkspaceHook).toBeGreaterThan(0);
    expect(otherCompanyHook).toBeGreaterThan(0);
  });

  it("answers 404 for another company's webhooks, whichever way they are asked for", async () => {
    const paths = [`${hooksOf(a.workspaceId)}/${okHook.id}`, `${hooksOf(b.workspaceId)}/${okHook.id}`];
    for (const path of paths) {
      expect((await orgB.get(path)).status, path).toBe(404);
      expect((await orgB.patch(path, { enabled: false })).status, path).toBe(404);
      expect((await orgB.get(`${path}/deliveries`)).status, path).toBe(404);
      expect((await orgB.delete(path)).status, path).toBe(404);
    }
    expect((await orgB.get(hooksOf(a.workspaceId))).status).toBe(404);
    expect((await orgA.get(`${hooksOf(a.workspaceId)}/${otherWorkspaceHook}`)).status).toBe(404);
    expect((await orgA.get(`${hooksOf(a.workspaceId)}/${okHook.id}`)).body.enabled).toBe(true);
  });

  it('delivers a signed session.ended that standardwebhooks verifies, to this workspace only', async () => {
    const sessionId = await endASession();
    const delivery = await eventually(async () => received.find((r) => r.path === '/ok' && r.body.includes(sessionId)), { what: 'the session.ended delivery' });
    const payload = new Webhook(okHook.secret).verify(delivery.body, delivery.headers as Record<string, string>) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload.type).toBe('session.ended');
    expect(payload.data).toMatchObject({ sessionId, workspaceId: a.workspaceId, reason: expect.any(String), deviceName: expect.stringMatching(/^Hook device/), devicePlatform: expect.any(String), outcome: null, outcomeReason: null, buildName: null });
    const { startedAt, endedAt, durationMs } = payload.data as { startedAt: string; endedAt: string; durationMs: number };
    expect(Date.parse(endedAt) - Date.parse(startedAt)).toBe(durationMs);
    expect(durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(payload.timestamp)).not.toBeNaN();
    expect(() => new Webhook(`whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`).verify(delivery.body, delivery.headers as Record<string, string>)).toThrow();

    const log = await eventually(async () => {
      const l = await deliveriesOf(a.workspaceId, okHook.id);
      return l.content[0]?.state === 'delivered' ? l : undefined;
    }, { what: 'the delivery marked delivered' });
    expect(log.content[0]).toMatchObject({ id: delivery.headers['webhook-id'], event: 'session.ended', state: 'delivered' });
    expect(log.content[0]!.attempts).toEqual([{ at: expect.any(String), status: 204, durationMs: expect.any(Number), request: { headers: expect.any(Object), body: delivery.body } }]);
    // The log keeps the request as the receiver got it: the content type and every webhook-* header, never the secret.
    const sent = log.content[0]!.attempts[0]!.request!.headers;
    for (const name of ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(sent[name], name).toBe(delivery.headers[name]);
    expect(new Webhook(okHook.secret).verify(log.content[0]!.attempts[0]!.request!.body, sent)).toMatchObject({ type: 'session.ended', data: { sessionId } });
    expect(JSON.stringify(log)).not.toContain(okHook.secret.slice('whsec_'.length));
    // Queued with the others in one transaction: the other workspace's and company's endpoints have nothing.
    expect((await deliveriesOf(otherWorkspace, otherWorkspaceHook)).totalElements).toBe(0);
    expect((await orgB.get(`${hooksOf(b.workspaceId)}/${otherCompanyHook}/deliveries`)).body.totalElements).toBe(0);
    expect(received.filter((r) => r.path === '/other-workspace' || r.path === '/other-company')).toEqual([]);
  });

  it('tells a CI run the build and the outcome its runner set before the session ended', async () => {
    const device = devices.shift()!;
    const created = await df('POST', '/sessions', { deviceId: device, type: 'automation', name: 'Checkout suite', buildName: 'app-2.3.1+ci.77' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sessionId = created.body.id as string;
    expect((await df('PUT', `/sessions/${sessionId}/outcome`, { outcome: 'failed', reason: 'pay button missing' })).status).toBe(200);
    expect((await df('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
    const delivery = await eventually(async () => received.find((r) => r.path === '/ok' && r.body.includes(sessionId)), { what: 'the session.ended delivery' });
    const payload = new Webhook(okHook.secret).verify(delivery.body, delivery.headers as Record<string, string>) as { data: Record<string, unknown> };
    expect(payload.data).toMatchObject({ sessionId, name: 'Checkout suite', buildName: 'app-2.3.1+ci.77', outcome: 'failed', outcomeReason: 'pay button missing', startedAt: expect.any(String), endedAt: expect.any(String) });
  });

  it('retries a failing endpoint on the schedule, records each attempt, and fails the delivery after the last', async () => {
    const failing = await orgA.post(hooksOf(a.workspaceId), { url: `${receiverUrl}/fail`, events: ['session.ended'] });
    expect(failing.status).toBe(201);
    failHook = { id: failing.body.id, secret: failing.body.secret };
    const sessionId = await endASession();
    const log = await eventually(async () => {
      const l = await deliveriesOf(a.workspaceId, failHook.id);
      return l.content.find((x) => x.state === 'failed');
    }, { what: 'a failed delivery' });
    expect((await deliveriesOf(a.workspaceId, failHook.id)).totalElements).toBe(1);
    expect(log.attempts).toHaveLength(3);
    for (const attempt of log.attempts) expect(attempt).toMatchObject({ status: 500, error: 'HTTP 500', response: 'receiver says 500', durationMs: expect.any(Number) });
    const times = log.attempts.map((x) => Date.parse(x.at));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(100);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(300);
    const tries = received.filter((r) => r.path === '/fail' && r.body.includes(sessionId));
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((t) => t.headers['webhook-id']))).toEqual(new Set([log.id]));
    for (const t of tries) expect(new Webhook(failHook.secret).verify(t.body, t.headers as Record<string, string>)).toMatchObject({ type: 'session.ended' });
    expect((await orgA.get(`${hooksOf(a.workspaceId)}/${failHook.id}`)).body.enabled).toBe(true);
  });

  it('disables an endpoint whose last deliveries all failed and mails its creator', async () => {
    await endASession();
    const hook = await eventually(async () => {
      const h = await orgA.get(`${hooksOf(a.workspaceId)}/${failHook.id}`);
      return h.body.enabled === false ? h.body : undefined;
    }, { what: 'the failing webhook disabled' });
    expect(hook.disabledReason).toMatch(/last 2 deliveries failed/);
    const mail = await smtp.waitForMail(a.email);
    expect(mail.raw).toContain('Webhook disabled');
    expect(mail.raw).toContain(`${receiverUrl}/fail`);
    const audit = await orgA.get('/audit/events?eventType=WebhookDisabled');
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain('WebhookDisabled');
  });

  it('sends a delivery again on request, after the endpoint is fixed and enabled', async () => {
    answers.set('/fail', 200);
    const enabled = await orgA.patch(`${hooksOf(a.workspaceId)}/${failHook.id}`, { enabled: true });
    expect(enabled.body.enabled).toBe(true);
    expect(enabled.body.disabledReason).toBeUndefined();
    const failed = (await deliveriesOf(a.workspaceId, failHook.id)).content.find((d) => d.state === 'failed')!;
    const again = await orgA.post(`${hooksOf(a.workspaceId)}/${failHook.id}/deliveries/${failed.id}/redeliver`);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    const done = await eventually(async () => {
      const d = (await deliveriesOf(a.workspaceId, failHook.id)).content.find((x) => x.id === failed.id)!;
      return d.state === 'delivered' ? d : undefined;
    }, { what: 'the redelivered delivery delivered' });
    expect(done.attempts.map((x) => x.status)).toEqual([500, 500, 500, 200]);
    const unknown = await orgA.post(`${hooksOf(a.workspaceId)}/${failHook.id}/deliveries/${crypto.randomUUID()}/redeliver`);
    expect(unknown.status).toBe(404);
    expect((await orgB.post(`${hooksOf(b.workspaceId)}/${failHook.id}/deliveries/${failed.id}/redeliver`, {})).status).toBe(404);
  });

  it('pings an endpoint at once: a signed webhook.ping the receiver verifies, in the log like any delivery', async () => {
    const ping = await orgA.post(`${hooksOf(a.workspaceId)}/${okHook.id}/ping`);
    expect(ping.status, JSON.stringify(ping.body)).toBe(202);
    expect(ping.body).toMatchObject({ id: expect.any(String), event: 'webhook.ping' });
    const got = await eventually(async () => received.find((r) => r.path === '/ok' && r.headers['webhook-id'] === ping.body.id), { what: 'the ping at the receiver' });
    const payload = new Webhook(okHook.secret).verify(got.body, got.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: 'webhook.ping', data: { webhookId: okHook.id, workspaceId: a.workspaceId } });
    const logged = await eventually(async () => {
      const d = (await deliveriesOf(a.workspaceId, okHook.id)).content.find((x) => x.id === ping.body.id);
      return d?.state === 'delivered' ? d : undefined;
    }, { what: 'the ping delivered in the log' });
    expect(logged.attempts).toMatchObject([{ status: 204, request: { body: got.body } }]);

    expect((await orgB.post(`${hooksOf(b.workspaceId)}/${okHook.id}/ping`, {})).status).toBe(404);
    expect((await orgB.post(`${hooksOf(a.workspaceId)}/${okHook.id}/ping`, {})).status).toBe(404);
    expect((await orgA.post(`${hooksOf(a.workspaceId)}/${otherWorkspaceHook}/ping`, {})).status).toBe(404);
    expect((await deliveriesOf(otherWorkspace, otherWorkspaceHook)).totalElements).toBe(0);
  });

  it('rotates the secret: during the overlap both secrets verify each attempt, after it only the new one', async () => {
    const hookPath = `${hooksOf(a.workspaceId)}/${okHook.id}`;
    /** Pings the endpoint and answers the request as the receiver got it. */
    const pinged = async () => {
      const ping = await orgA.post(`${hookPath}/ping`);
      expect(ping.status, JSON.stringify(ping.body)).toBe(202);
      return eventually(async () => received.find((r) => r.headers['webhook-id'] === ping.body.id), { what: 'the ping at the receiver' });
    };
    const verifies = (secret: string, r: Received) => {
      try {
        new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    };

    for (const overlapSeconds of [-1, 7 * 24 * 3600 + 1, 1.5, 'soon']) {
      const bad = await orgA.post(`${hookPath}/rotate-secret`, { overlapSeconds });
      expect(bad.status, String(overlapSeconds)).toBe(400);
      expect(errorCode(bad)).toBe('VALIDATION_FAILED');
    }
    expect((await orgA.get(hookPath)).body.previousSecretExpiresAt).toBeUndefined();
    expect(verifies(okHook.secret, await pinged())).toBe(true);
    expect((await orgB.post(`${hooksOf(b.workspaceId)}/${okHook.id}/rotate-secret`, {})).status).toBe(404);
    expect((await orgA.post(`${hooksOf(a.workspaceId)}/${otherCompanyHook}/rotate-secret`, {})).status).toBe(404);

    const first = okHook.secret;
    const rotated = await orgA.post(`${hookPath}/rotate-secret`, { overlapSeconds: 3600 });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(rotated.body.secret).not.toBe(first);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(expires - Date.now()).toBeGreaterThan(3500_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(3600_000);
    const shown = await orgA.get(hookPath);
    expect(shown.body.secret).toBeUndefined();
    expect(shown.body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);
    const second = rotated.body.secret as string;

    const during = await pinged();
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(second, during)).toBe(true);
    expect(verifies(first, during)).toBe(true);

    // No overlap: the replaced secret's time ended as it was replaced.
    const again = await orgA.post(`${hookPath}/rotate-secret`, { overlapSeconds: 0 });
    expect(again.status).toBe(200);
    const third = again.body.secret as string;
    const after = await pinged();
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(third, after)).toBe(true);
    expect(verifies(second, after)).toBe(false);
    expect(verifies(first, after)).toBe(false);
    okHook.secret = third;

    const audit = await orgA.get('/audit/events?eventType=WebhookSecretRotated');
    expect(audit.status).toBe(200);
    expect(audit.body.content).toHaveLength(2);
    const text = JSON.stringify(audit.body);
    for (const secret of [first, second, third]) expect(text).not.toContain(secret.slice('whsec_'.length));
    expect(text).toContain('[redacted]');
    expect(text).toContain(rotated.body.previousSecretExpiresAt);
    for (const secret of [first, second, third]) expect(await tablesWith(secret.slice('whsec_'.length))).toEqual({});
    expect(await tablesWith('whsec_')).toEqual({});
  });

  it('restarted with a new SECRETS_KEY and the old one in SECRETS_PREVIOUS_KEYS, seals every secret again under the new key and still delivers, both signatures during an overlap', { timeout: 120_000 }, async () => {
    const hookPath = `${hooksOf(a.workspaceId)}/${okHook.id}`;
    const rotated = await orgA.post(`${hookPath}/rotate-secret`, { overlapSeconds: 3600 });
    expect(rotated.status).toBe(200);
    const [replaced, current] = [okHook.secret, rotated.body.secret as string];
    okHook.secret = current;
    const oldKey = readFileSync(secretsKeyFilePath(server.dataDir), 'utf8').trim();
    const newKey = randomBytes(32).toString('base64');
    await restart({ SECRETS_KEY: newKey, SECRETS_PREVIOUS_KEYS: oldKey });

    const newKeyId = new SecretBox(Buffer.from(newKey, 'base64')).currentKeyId;
    const stored = async (id: number) =>
      (await server.process.platform.db.query<{ secret: string; previous_secret: string | null }>('SELECT secret, previous_secret FROM org_webhooks WHERE id = $1', [id])).rows[0]!;
    // Sealed again in the background of the start: both secrets of the endpoint in its overlap, and the other endpoints'.
    await eventually(async () => {
      const row = await stored(okHook.id);
      return SecretBox.keyIdOf(row.secret) === newKeyId && SecretBox.keyIdOf(row.previous_secret ?? '') === newKeyId ? row : undefined;
    }, { what: 'the secrets sealed under the new key', timeoutMs: 30_000 });
    await eventually(async () => (SecretBox.keyIdOf((await stored(failHook.id)).secret) === newKeyId ? true : undefined), { what: "the other endpoint's secret sealed under the new key" });
    // An event of the platform itself: no actor, the secrets redacted in the audit.
    const audit = await eventually(async () => {
      const res = await orgA.get('/audit/events?eventType=WebhookSecretResealed&size=50');
      return (res.body.content as { resourceId: string; actorId: number | null }[]).some((e) => e.resourceId === String(okHook.id)) ? res.body : undefined;
    }, { what: 'the re-sealing audited' });
    const entry = (audit.content as { resourceId: string; actorId: number | null; payload: Record<string, unknown> }[]).find((e) => e.resourceId === String(okHook.id))!;
    expect(entry.actorId).toBeNull();
    expect(entry.payload).toMatchObject({ secret: '[redacted]', previousSecret: '[redacted]' });
    expect(JSON.stringify(audit)).not.toContain('sealed:v1:');

    const ping = await orgA.post(`${hookPath}/ping`);
    expect(ping.status, JSON.stringify(ping.body)).toBe(202);
    const got = await eventually(async () => received.find((r) => r.headers['webhook-id'] === ping.body.id), { what: 'the ping after the restart' });
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [current, replaced]) expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'webhook.ping' });
    for (const secret of [current, replaced]) expect(await tablesWith(secret.slice('whsec_'.length))).toEqual({});
  });

  it('with a secret no configured key opens, the endpoint says it must be rotated, deliveries fail saying why and send nothing; a rotation mends it', { timeout: 60_000 }, async () => {
    const hookPath = `${hooksOf(a.workspaceId)}/${okHook.id}`;
    // A rotation recorded by a process with another SECRETS_KEY (a replica started with the wrong one, or
    // a key lost since): this installation's keys do not open its secret. Every other secret stays readable.
    const { store } = server.process.platform;
    const foreign = new SecretBox(randomBytes(32)).seal(`whsec_${randomBytes(32).toString('base64')}`, `webhook:${okHook.id}:secret`);
    const ctx = commandContext({ now: () => new Date() }, { companyId: a.companyId, workspaceId: a.workspaceId });
    const payload = { webhookId: okHook.id, secret: foreign, overlapEndsAt: new Date().toISOString() };
    await store.append(webhookStream(okHook.id), [{ type: 'WebhookSecretRotated', payload, metadata: eventMetadata(ctx) }], 'any');
    await server.process.platform.readModels.waitFor(await store.headPosition(), { names: ['org-webhooks'] });
    expect((await orgA.get(hookPath)).body).toMatchObject({ id: okHook.id, secretMustBeRotated: true });
    expect((await orgA.get(hooksOf(a.workspaceId))).body.find((h: { id: number }) => h.id === okHook.id).secretMustBeRotated).toBe(true);

    const ping = await orgA.post(`${hookPath}/ping`);
    expect(ping.status, JSON.stringify(ping.body)).toBe(202);
    const failed = await eventually(async () => {
      const d = (await deliveriesOf(a.workspaceId, okHook.id)).content.find((x) => x.id === ping.body.id);
      return d?.state === 'failed' ? d : undefined;
    }, { what: 'the ping failed' });
    expect(failed.attempts).toHaveLength(3);
    for (const attempt of failed.attempts) {
      expect(attempt).toMatchObject({ status: null, error: expect.stringContaining('rotate the secret') });
      expect(attempt.request).toBeUndefined();
    }
    expect(received.filter((r) => r.headers['webhook-id'] === ping.body.id)).toEqual([]);

    // The secret it replaces is not needed.
    const rotated = await orgA.post(`${hookPath}/rotate-secret`, { overlapSeconds: 0 });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.secretMustBeRotated).toBeUndefined();
    okHook.secret = rotated.body.secret;
    expect((await orgA.get(hookPath)).body.secretMustBeRotated).toBeUndefined();
    const again = await orgA.post(`${hookPath}/ping`);
    const got = await eventually(async () => received.find((r) => r.headers['webhook-id'] === again.body.id), { what: 'the ping after the rotation' });
    expect(new Webhook(okHook.secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'webhook.ping' });
  });

  it('changes events, refuses an unknown one on change, and deletes', async () => {
    const bad = await orgA.patch(`${hooksOf(a.workspaceId)}/${okHook.id}`, { events: ['nope'] });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('UNKNOWN_WEBHOOK_EVENT');
    const badUrl = await orgA.patch(`${hooksOf(a.workspaceId)}/${okHook.id}`, { url: 'javascript:alert(1)' });
    expect(errorCode(badUrl)).toBe('INVALID_WEBHOOK_URL');
    const changed = await orgA.patch(`${hooksOf(a.workspaceId)}/${okHook.id}`, { events: ['healthcheck.down', 'session.ended'] });
    expect(changed.body.events).toEqual(['session.ended', 'healthcheck.down']);
    expect((await orgA.delete(`${hooksOf(a.workspaceId)}/${okHook.id}`)).status).toBe(204);
    expect((await orgA.get(`${hooksOf(a.workspaceId)}/${okHook.id}`)).status).toBe(404);
  });
});
