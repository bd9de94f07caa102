import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openPglite, type Database } from '#shared/db/index.js';
import { commandContext, createSqlEventStore, eventMetadata, migrateSqlEventStore, type EventStore, type RecordedEvent } from '#shared/es/index.js';
import { inSpan, startTracing, tracedEventStore, type Tracing } from '#shared/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver } from '#test/helpers/otlp-receiver.js';
import type { Platform } from '../../platform.js';
import { EventMailer } from './event-mail.js';

/**
 * A mail sent for an event of the log (a quarantine, a maintenance in a booking) is a span in the trace
 * of the request that caused the event, and a root span of its own for an event that recorded no trace;
 * spans exported to an OTLP receiver on loopback, events on a real event store (PGlite).
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null = null;
let db: Database;
let store: EventStore;
let mailer: EventMailer;
const sentIn: { eventId: string; traceId: string | undefined }[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' }, 'qa-event-mail-test');
  db = await openPglite();
  await migrateSqlEventStore(db);
  store = tracedEventStore(createSqlEventStore(db));
  const platform = { db, store, logger: pino({ level: 'silent' }), now: () => new Date() } as unknown as Platform;
  mailer = new EventMailer(platform, {
    what: 'the test mail',
    schemaName: 'test_mails',
    tables: { position: 'test_mail_position', positionName: 'test', claims: 'test_mails', subjectColumn: 'subject' },
    eventTypes: ['Alarmed'],
    subjectOf: (event: RecordedEvent) => String((event.payload as { subject: string }).subject),
    send: async (event: RecordedEvent) => {
      sentIn.push({ eventId: event.id, traceId: trace.getActiveSpan()?.spanContext().traceId });
      return 1;
    },
  });
  await mailer.start();
}, 60_000);

afterAll(async () => {
  await mailer?.stop();
  await db?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

const alarm = (subject: string) => [{ type: 'Alarmed', payload: { subject }, metadata: eventMetadata(commandContext({ now: () => new Date() })) }];

describe('a mail of an event', () => {
  it('is sent in a span of the trace of the request that appended the event', async () => {
    let requestTrace = '';
    let requestSpan = '';
    await inSpan('request', {}, async () => {
      const span = trace.getActiveSpan()!.spanContext();
      [requestTrace, requestSpan] = [span.traceId, span.spanId];
      return store.append('alarm-1', alarm('device-1'), 'no_stream');
    });
    await expect.poll(() => sentIn.length).toBe(1);
    expect(sentIn[0]!.traceId).toBe(requestTrace);
    await expect.poll(() => receiver.spans.filter((s) => s.name === 'mail test').length).toBe(1);
    const mail = receiver.spans.find((s) => s.name === 'mail test')!;
    expect(mail.traceId).toBe(requestTrace);
    // Under a span of the request (the event's traceparent names the one that appended it), not a root.
    expect([requestSpan, ...receiver.spans.filter((s) => s.traceId === requestTrace).map((s) => s.spanId)]).toContain(mail.parentSpanId);
  });

  it('is a root span of its own for an event appended outside any trace', async () => {
    await store.append('alarm-2', alarm('device-2'), 'no_stream');
    await expect.poll(() => sentIn.length).toBe(2);
    expect(sentIn[1]!.traceId).toBeTruthy();
    await expect.poll(() => receiver.spans.filter((s) => s.name === 'mail test').length).toBe(2);
    const second = receiver.spans.filter((s) => s.name === 'mail test')[1]!;
    expect(second.traceId).toBe(sentIn[1]!.traceId);
    expect(second.parentSpanId ?? '').toBe('');
  });
});
