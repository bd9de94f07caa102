import { randomBytes, randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database, type Sql } from '#shared/db/index.js';
import { commandContext, createSqlEventStore, eventMetadata, migrateSqlEventStore, type EventStore, type RecordedEvent } from '#shared/es/index.js';
import { contextFrom, inSpan, MAX_SPAN_LINKS, SpanKind, startTracing, type Tracing } from '#shared/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '#test/helpers/otlp-receiver.js';
import { ProjectionRunner } from './runner.js';
import { applyAll, type Projection } from './types.js';

/**
 * A projection's batch is a trace of its own, linked to the traces its events were appended in, on a
 * real event store (PGlite) and runner, spans exported to an OTLP receiver on loopback. The sampler is
 * `parentbased_traceidratio` at 0: a batch is recorded only because an event it applies was sampled
 * (the writes here are made sampled by continuing a sampled caller, as a request carrying one is).
 */
let db: Database;
let store: EventStore;

beforeAll(async () => {
  db = await openPglite();
  await migrateSqlEventStore(db);
  store = createSqlEventStore(db);
});
afterAll(async () => {
  await store?.close();
  await db?.close();
});

const clock = { now: () => new Date() };

/** A read model of one event type of its own (so each test's batches hold only its events): a row per event, and the span each apply ran in. */
function linkedProjection(): Projection & { type: string; seenSpans: (string | undefined)[] } {
  const name = `links-${randomUUID().slice(0, 8)}`;
  const table = `${name.replaceAll('-', '_')}_rows`;
  const type = `Linked${randomUUID().replaceAll('-', '')}`;
  const seenSpans: (string | undefined)[] = [];
  return {
    name,
    type,
    seenSpans,
    version: 1,
    eventTypes: [type],
    tables: [table],
    schema: `CREATE TABLE IF NOT EXISTS ${table} (event_id uuid PRIMARY KEY)`,
    async apply(tx: Sql, e: RecordedEvent) {
      seenSpans.push(trace.getActiveSpan()?.spanContext().spanId);
      await tx.query(`INSERT INTO ${table} (event_id) VALUES ($1)`, [e.id]);
    },
  };
}

/** Appends `count` events of `type`, their metadata made as every append path makes it, in whatever span is active. */
const append = async (type: string, count = 1) =>
  (await store.append(`linked-${randomUUID()}`, Array.from({ length: count }, () => ({ type, payload: {}, metadata: eventMetadata(commandContext(clock)) })), 'any')).position;

/** Runs `fn` in a sampled span (a child of a sampled caller's); answers its span context and what `fn` answered. */
async function inSampledSpan<T>(name: string, fn: () => Promise<T>): Promise<{ traceId: string; spanId: string; result: T }> {
  const caller = contextFrom({ traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` });
  return inSpan(name, {}, async () => ({ ...trace.getActiveSpan()!.spanContext(), result: await fn() }), SpanKind.INTERNAL, caller);
}

describe('with tracing off', () => {
  it('appends record no trace, and a batch is applied in no span without reading its events’ traces', async () => {
    const projection = linkedProjection();
    const position = await inSpan('not a span', {}, () => append(projection.type));
    const [event] = await store.readAll({ after: position - 1n, filter: { eventTypes: [projection.type] } });
    expect(event!.metadata).not.toHaveProperty('traceparent');
    let read = 0;
    const traced = { ...event!, metadata: { ...event!.metadata, get traceparent() {
      read += 1;
      return '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    } } };
    await db.exec(projection.schema);
    await applyAll(projection, db, [traced]);
    expect(projection.seenSpans).toEqual([undefined]);
    expect(read).toBe(0);
  });
});

describe('with tracing on, nothing sampled but what continues a sampled trace', () => {
  let receiver: OtlpReceiver;
  let tracing: Tracing | null;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    tracing = await startTracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
      'qa-projection-links-test',
    );
    expect(tracing).not.toBeNull();
  });
  afterAll(async () => {
    await tracing?.shutdown();
    await receiver?.close();
  });

  /** Runs `projection` from the start of the log until it has applied `position`, and stops it. */
  async function applied(projection: Projection, position: bigint): Promise<void> {
    const runner = new ProjectionRunner({ store, db, projections: [projection], idlePollMs: 50 });
    await runner.start();
    try {
      await runner.waitFor(position);
    } finally {
      await runner.stop();
    }
  }
  const batchSpans = async (projection: Projection, count: number): Promise<ReceivedSpan[]> => {
    await expect.poll(() => receiver.spans.filter((s) => s.name === `projection apply ${projection.name}`).length, { message: `${count} batch spans` }).toBeGreaterThanOrEqual(count);
    return receiver.spans.filter((s) => s.name === `projection apply ${projection.name}`);
  };

  it('a batch’s span links to the spans its events were appended in, each once, in log order; it is a trace of its own', async () => {
    const projection = linkedProjection();
    const first = await inSampledSpan('write 1', () => append(projection.type, 2));
    const second = await inSampledSpan('write 2', () => append(projection.type));
    await append(projection.type); // untraced: nothing to link
    const last = await inSpan('unsampled write', {}, () => append(projection.type)); // not sampled: nothing recorded to go to
    await applied(projection, last);
    const [span] = await batchSpans(projection, 1);
    expect(span!.links).toEqual([{ traceId: first.traceId, spanId: first.spanId }, { traceId: second.traceId, spanId: second.spanId }]);
    expect(span!.attributes).toMatchObject({ 'projection.events': 5 });
    expect(span!.parentSpanId).toBe('');
    expect([first.traceId, second.traceId]).not.toContain(span!.traceId);
    expect(projection.seenSpans).toEqual(Array(5).fill(span!.spanId));
  });

  it(`links at most ${MAX_SPAN_LINKS} traces, the first of the batch, and counts those left out`, async () => {
    const projection = linkedProjection();
    const writes: { traceId: string; spanId: string; result: bigint }[] = [];
    for (let i = 0; i < MAX_SPAN_LINKS + 8; i++) writes.push(await inSampledSpan(`bounded write ${i}`, () => append(projection.type)));
    await applied(projection, writes.at(-1)!.result);
    const [span] = await batchSpans(projection, 1);
    expect(span!.links).toEqual(writes.slice(0, MAX_SPAN_LINKS).map(({ traceId, spanId }) => ({ traceId, spanId })));
    expect(span!.attributes).toMatchObject({ 'projection.events': MAX_SPAN_LINKS + 8, 'links.unlinked': 8 });
  });

  it('a batch of nothing sampled makes no span at all (the apply runs alone); the next, with a sampled event, is recorded', async () => {
    const projection = linkedProjection();
    const runner = new ProjectionRunner({ store, db, projections: [projection], idlePollMs: 50 });
    await runner.start();
    try {
      await append(projection.type);
      await runner.waitFor(await inSpan('unsampled write', {}, () => append(projection.type)));
      expect(projection.seenSpans).toEqual([undefined, undefined]);
      const sampled = await inSampledSpan('sampled write', () => append(projection.type));
      await runner.waitFor(sampled.result);
    } finally {
      await runner.stop();
    }
    // Spans leave in the order they end: the recorded batch's being in, an earlier batch's would be too.
    const spans = await batchSpans(projection, 1);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toMatchObject({ 'projection.events': 1 });
    expect(projection.seenSpans.at(-1)).toBe(spans[0]!.spanId);
  });
});
