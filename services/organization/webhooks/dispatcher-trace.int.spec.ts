import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookStream } from '#events/organization/webhooks.js';
import { orgDirectoryProjection } from '#projections/org-directory/index.js';
import { orgWebhooksProjection } from '#projections/org-webhooks/index.js';
import { ProjectionRunner } from '#projections/runner.js';
import { SecretBox } from '#shared/auth/index.js';
import { openPglite, type Database } from '#shared/db/index.js';
import { commandContext, createSqlEventStore, eventMetadata, migrateSqlEventStore, type EventStore, type RecordedEvent } from '#shared/es/index.js';
import { inSpan, startTracing, tracedEventStore, type Tracing } from '#shared/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver } from '#test/helpers/otlp-receiver.js';
import type { Platform } from '../../platform.js';
import { WebhookService } from './service.js';

/**
 * A reaction to an event continues the event's trace: a device's health change appended inside a traced
 * command is delivered to an endpoint that fails, and the endpoint disabled because of it (an event the
 * dispatcher causes) records that same trace. The dispatcher's round that sends a delivery is a trace of
 * its own (`webhooks.dispatch`), where the attempts of untraced events' deliveries go; its idle rounds
 * make no span. Real dispatcher, read model and event store (PGlite).
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null;
let db: Database;
let store: EventStore;
let runner: ProjectionRunner;
let service: WebhookService;
let endpoint: Server;
const heard: (string | undefined)[] = [];
/** The dispatcher's rounds so far (each claims what is due: most find nothing). */
let rounds = 0;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' }, 'qa-webhook-trace-test');
  expect(tracing).not.toBeNull();
  endpoint = createServer((req, res) => {
    heard.push(req.headers.traceparent as string | undefined);
    req.resume().on('end', () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  db = await openPglite();
  await migrateSqlEventStore(db);
  await db.exec(orgDirectoryProjection.schema);
  store = tracedEventStore(createSqlEventStore(db));
  runner = new ProjectionRunner({ store, db, projections: [orgWebhooksProjection], idlePollMs: 50 });
  await runner.start();
  const config = { WEBHOOK_RETRY_SCHEDULE: [], WEBHOOK_TIMEOUT: 5_000, WEBHOOK_ALLOW_PRIVATE_URLS: true, WEBHOOK_DISABLE_AFTER_FAILURES: 1 };
  // The dispatcher's database counts its rounds of looking for due deliveries, so that the test knows idle ones ran.
  const counted = new Proxy(db, {
    get(target, property) {
      if (property !== 'query') return Reflect.get(target, property, target) as unknown;
      return (text: string, params?: unknown[]) => {
        if (text.startsWith('SELECT DISTINCT webhook_id FROM webhook_deliveries')) rounds += 1;
        return target.query(text, params);
      };
    },
  });
  const platform = { db: counted, store, readModels: runner, config, logger: pino({ level: 'silent' }), now: () => new Date() } as unknown as Platform;
  service = new WebhookService(platform, new SecretBox(randomBytes(32)));
  await service.dispatcher.start();
});

afterAll(async () => {
  await service?.dispatcher.stop();
  await runner?.stop();
  await store?.close();
  await db?.close();
  await new Promise((resolve) => endpoint?.close(resolve));
  await tracing?.shutdown();
  await receiver?.close();
});

describe('a webhook endpoint disabled because of an event', () => {
  it('is disabled in the trace of the command behind the event: its event records that trace, under a span whose parent is the command’s', async () => {
    const { port } = endpoint.address() as AddressInfo;
    const owner = { companyId: 1, workspaceId: 2, userId: 3 };
    const { hook } = await service.create(owner, { url: `http://127.0.0.1:${port}/hook`, events: ['device.health_changed'], enabled: true }, commandContext({ now: () => new Date() }, { actorId: 3, companyId: 1, workspaceId: 2 }));
    const command = await inSpan('health command', {}, async () => {
      const payload = { deviceId: 'd1', companyId: 1, workspaceIds: [2], from: 'healthy', health: { state: 'degraded', reasons: ['battery'], checkedAt: new Date().toISOString() }, cause: 'sample' };
      await store.append('device-health-d1', [{ type: 'DeviceHealthChanged', payload, metadata: eventMetadata(commandContext({ now: () => new Date() }, { companyId: 1 })) }], 'any');
      return trace.getActiveSpan()!.spanContext();
    });
    let disabled: RecordedEvent | undefined;
    await expect.poll(async () => (disabled = (await store.readStream(webhookStream(hook.id))).find((e) => e.type === 'WebhookDisabled')) !== undefined, { message: 'the endpoint disabled' }).toBe(true);
    const traceparent = String(disabled!.metadata.traceparent);
    expect(traceparent).toMatch(new RegExp(`^00-${command.traceId}-[0-9a-f]{16}-01$`));
    // The attempt the endpoint refused was a child of the command, and told the endpoint so.
    expect(heard[0]).toMatch(new RegExp(`^00-${command.traceId}-[0-9a-f]{16}-01$`));
    await expect.poll(() => receiver.spans.some((s) => s.name === 'webhook disable')).toBe(true);
    const reaction = receiver.spans.find((s) => s.name === 'webhook disable')!;
    expect(reaction).toMatchObject({ traceId: command.traceId, parentSpanId: command.spanId, spanId: traceparent.slice(36, 52) });
    expect(receiver.spans.find((s) => s.name === 'webhook delivery')).toMatchObject({ traceId: command.traceId, parentSpanId: command.spanId });
    // The round that sent it is a trace of its own; the attempt stays in the trace of the command behind its event.
    expect(receiver.spans.filter((s) => s.name === 'webhooks.dispatch')).toEqual([expect.objectContaining({ parentSpanId: '', attributes: { 'webhook.deliveries': 1 } })]);
    expect(receiver.spans.find((s) => s.name === 'webhooks.dispatch')!.traceId).not.toBe(command.traceId);
  });

  it('is disabled, for an event appended outside any trace, in the trace of the dispatcher’s round; rounds that find nothing make no span', async () => {
    const { port } = endpoint.address() as AddressInfo;
    const { hook } = await service.create({ companyId: 1, workspaceId: 2, userId: 3 }, { url: `http://127.0.0.1:${port}/untraced`, events: ['device.health_changed'], enabled: true }, commandContext({ now: () => new Date() }, { actorId: 3, companyId: 1, workspaceId: 2 }));
    const payload = { deviceId: 'd2', companyId: 1, workspaceIds: [2], from: 'healthy', health: { state: 'degraded', reasons: ['storage'], checkedAt: new Date().toISOString() }, cause: 'sample' };
    await store.append('device-health-d2', [{ type: 'DeviceHealthChanged', payload, metadata: eventMetadata(commandContext({ now: () => new Date() }, { companyId: 1 })) }], 'any');
    await expect.poll(async () => (await store.readStream(webhookStream(hook.id))).some((e) => e.type === 'WebhookDisabled'), { message: 'the endpoint disabled' }).toBe(true);
    await expect.poll(() => receiver.spans.filter((s) => s.name === 'webhooks.dispatch').length).toBe(2);
    const round = receiver.spans.filter((s) => s.name === 'webhooks.dispatch')[1]!;
    expect(round).toMatchObject({ parentSpanId: '', statusCode: 0, attributes: { 'webhook.deliveries': 1 } });
    // The attempt and the disabling are the round's children; the disabling's append is the disabling's.
    await expect.poll(() => receiver.spans.filter((s) => s.traceId === round.traceId).map((s) => s.name).sort()).toEqual(['event store append webhook', 'webhook delivery', 'webhook disable', 'webhooks.dispatch']);
    const inRound = (name: string) => receiver.spans.find((s) => s.traceId === round.traceId && s.name === name)!;
    expect(inRound('webhook delivery').parentSpanId).toBe(round.spanId);
    expect(inRound('webhook disable').parentSpanId).toBe(round.spanId);
    expect(inRound('event store append webhook').parentSpanId).toBe(inRound('webhook disable').spanId);
    // Two more rounds, with nothing due; then a span ended after them has arrived (spans leave in the order they end).
    const after = rounds;
    await expect.poll(() => rounds, { timeout: 5_000 }).toBeGreaterThanOrEqual(after + 2);
    await inSpan('after the rounds', {}, async () => undefined);
    await expect.poll(() => receiver.spans.some((s) => s.name === 'after the rounds')).toBe(true);
    expect(receiver.spans.filter((s) => s.name === 'webhooks.dispatch')).toHaveLength(2);
  });
});
