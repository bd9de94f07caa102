import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookStream } from '#events/organization/webhooks.js';
import { orgWebhooksProjection, getWebhook } from '#projections/org-webhooks/index.js';
import { ProjectionRunner } from '#projections/runner.js';
import { SecretBox } from '#shared/auth/index.js';
import { openPglite, type Database } from '#shared/db/index.js';
import { commandContext, createSqlEventStore, eventMetadata, migrateSqlEventStore, type EventStore } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { MUST_ROTATE } from './secrets.js';
import { WebhookService } from './service.js';
import { newSecret } from './signature.js';

/**
 * Webhook secrets at rest through the real service, dispatcher, read model and event store (PGlite),
 * with a loopback receiver verifying every delivery with `standardwebhooks`: secrets recorded in clear
 * before sealing sign as they are and are sealed at start; a key rotation seals them again; a secret
 * no configured key opens fails its deliveries (nothing sent) until it is rotated.
 */
const keyA = randomBytes(32);
const keyB = randomBytes(32);
const OWNER = { companyId: 1, workspaceId: 2 };
const HOOK = 900;
let db: Database;
let store: EventStore;
let runner: ProjectionRunner;
let endpoint: Server;
let url: string;
const heard: { headers: IncomingHttpHeaders; body: string }[] = [];
const logged: { msg: string; webhookId?: number; field?: string }[] = [];
let service: WebhookService | null = null;
let platform: Platform;

/** A service with this box, its dispatcher sending. */
async function serviceWith(box: SecretBox): Promise<WebhookService> {
  await service?.dispatcher.stop();
  service = new WebhookService(platform, box);
  await service.dispatcher.start();
  return service;
}

/** Pings the endpoint and answers the delivery once its attempt is recorded. */
async function pinged(s: WebhookService) {
  const ping = await s.ping(OWNER, HOOK);
  let delivery;
  await expect.poll(async () => (delivery = (await s.deliveries(OWNER, HOOK, 0, 50)).content.find((d) => d.id === ping.id && d.state !== 'pending')) !== undefined, { message: 'the ping attempted' }).toBe(true);
  return { delivery: delivery!, heard: heard.find((h) => h.headers['webhook-id'] === ping.id) };
}

const verifies = (secret: string, r: { headers: IncomingHttpHeaders; body: string }) => {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};
const stored = async () => (await getWebhook(db, OWNER.companyId, OWNER.workspaceId, HOOK))!;

beforeAll(async () => {
  endpoint = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      heard.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hook`;
  db = await openPglite();
  await migrateSqlEventStore(db);
  store = createSqlEventStore(db);
  runner = new ProjectionRunner({ store, db, projections: [orgWebhooksProjection], idlePollMs: 50 });
  await runner.start();
  const config = { WEBHOOK_RETRY_SCHEDULE: [], WEBHOOK_TIMEOUT: 5_000, WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_DISABLE_AFTER_FAILURES: 100 };
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) });
  platform = { db, store, readModels: runner, config, logger, now: () => new Date() } as unknown as Platform;
});

afterEach(() => {
  heard.length = 0;
});

afterAll(async () => {
  await service?.dispatcher.stop();
  await runner?.stop();
  await store?.close();
  await db?.close();
  await new Promise((resolve) => endpoint?.close(resolve));
});

describe('webhook signing secrets at rest', () => {
  const first = newSecret();
  const second = newSecret();
  const overlapEndsAt = new Date(Date.now() + 3600_000).toISOString();

  it('signs with secrets recorded in clear before sealing, then seals them at start as an event of the platform, and signs the same', async () => {
    // An endpoint of an older installation: created and rotated with the secrets in clear.
    const ctx = commandContext({ now: () => new Date() }, { actorId: 3, ...OWNER });
    const created = { webhookId: HOOK, ...OWNER, url, events: ['session.ended' as const], enabled: true, secret: first, createdBy: 3 };
    await store.append(webhookStream(HOOK), [{ type: 'WebhookCreated', payload: created, metadata: eventMetadata(ctx) }, { type: 'WebhookSecretRotated', payload: { webhookId: HOOK, secret: second, overlapEndsAt }, metadata: eventMetadata(ctx) }], 'no_stream');
    const s = await serviceWith(new SecretBox(keyA));
    await runner.waitFor(await store.headPosition());
    expect(s.view(await stored()).secretMustBeRotated).toBeUndefined();
    const before = await pinged(s);
    expect(verifies(second, before.heard!) && verifies(first, before.heard!)).toBe(true);

    expect(await s.resealSecrets()).toBe(1);
    const row = await stored();
    expect(JSON.stringify(row)).not.toContain('whsec_');
    expect([SecretBox.keyIdOf(row.secret), SecretBox.keyIdOf(row.previousSecret!)]).toEqual([new SecretBox(keyA).currentKeyId, new SecretBox(keyA).currentKeyId]);
    expect(row.previousSecretUntil).toBe(overlapEndsAt);
    const events = await store.readStream(webhookStream(HOOK));
    const resealed = events.at(-1)!;
    expect(resealed.type).toBe('WebhookSecretResealed');
    expect(JSON.stringify(resealed.payload)).not.toContain('whsec_');
    // The platform's own: no actor.
    expect(resealed.metadata.actorId ?? null).toBeNull();
    // Done once: the next start has nothing to seal.
    expect(await s.resealSecrets()).toBe(0);
    const after = await pinged(s);
    expect(after.delivery.state).toBe('delivered');
    expect(verifies(second, after.heard!) && verifies(first, after.heard!)).toBe(true);
  });

  it('under a new key with the old one as previous, seals them again under the new key and signs the same', async () => {
    const s = await serviceWith(new SecretBox(keyB, [keyA]));
    const underA = await stored();
    const after = await pinged(s);
    expect(verifies(second, after.heard!) && verifies(first, after.heard!)).toBe(true);
    expect(await s.resealSecrets()).toBe(1);
    const row = await stored();
    expect(SecretBox.keyIdOf(row.secret)).toBe(new SecretBox(keyB).currentKeyId);
    expect(SecretBox.keyIdOf(row.previousSecret!)).toBe(new SecretBox(keyB).currentKeyId);
    expect(row.secret).not.toBe(underA.secret);
    // Only the new key now: it opens them.
    const only = await serviceWith(new SecretBox(keyB));
    const again = await pinged(only);
    expect(verifies(second, again.heard!) && verifies(first, again.heard!)).toBe(true);
  });

  it('without a key that opens the secret, fails each delivery saying so and sends nothing, shows that it must be rotated; a rotation mends it', async () => {
    const s = await serviceWith(new SecretBox(randomBytes(32)));
    expect(s.view(await stored())).toMatchObject({ id: HOOK, secretMustBeRotated: true });
    expect(await s.resealSecrets()).toBe(0);
    expect(logged.some((l) => l.webhookId === HOOK && l.field === 'secret' && l.msg.includes('does not open'))).toBe(true);
    const failed = await pinged(s);
    expect(failed.delivery.state).toBe('failed');
    expect(failed.delivery.attempts).toEqual([{ at: expect.any(String), status: null, durationMs: expect.any(Number), error: MUST_ROTATE }]);
    expect(failed.heard).toBeUndefined();
    expect(heard).toEqual([]);

    const { hook, secret } = await s.rotateSecret(OWNER, HOOK, 3600, commandContext({ now: () => new Date() }, { actorId: 3, ...OWNER }));
    expect(s.view(hook, secret)).toMatchObject({ secret, previousSecretExpiresAt: expect.any(String) });
    expect(s.view(hook).secretMustBeRotated).toBeUndefined();
    // The replaced secret, under the lost key, cannot sign beside it: the new one signs alone.
    const mended = await pinged(s);
    expect(mended.delivery.state).toBe('delivered');
    expect(String(mended.heard!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(secret, mended.heard!)).toBe(true);
  });
});
