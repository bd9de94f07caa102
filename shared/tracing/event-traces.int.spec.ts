import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '#test/helpers/otlp-receiver.js';
import { openPglite, type Database } from '../db/index.js';
import { CoalescingWriter } from '../es/coalesce.js';
import { commandContext, createSqlEventStore, eventMetadata, handleCommand, migrateSqlEventStore, type Decider, type EventStore, type RecordedEvent } from '../es/index.js';
import { contextFrom, inSpan, inTraceOf, SpanKind, startTracing, tracedEventStore, type Tracing } from './index.js';

/**
 * Which trace an event records, on a real event store (PGlite, wrapped as the platform wraps it), with
 * tracing on and spans exported to an OTLP receiver on loopback: events appended by paths other than
 * `handleCommand` record the span they were made in, or none outside any; what reacts to an event (a
 * follower of the log) continues the trace the event recorded, and the events it appends record that.
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null;
let db: Database;
let store: EventStore;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' }, 'qa-event-traces-test');
  expect(tracing).not.toBeNull();
  db = await openPglite();
  await migrateSqlEventStore(db);
  store = tracedEventStore(createSqlEventStore(db));
});

afterAll(async () => {
  await store?.close();
  await db?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

type Noted = { type: 'Noted'; payload: { text: string } };
const noteDecider: Decider<{ text: string }, Noted, number> = {
  initialState: () => 0,
  evolve: (n) => n + 1,
  decide: (command) => [{ type: 'Noted', payload: { text: command.text } }],
};
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

/** The span context active now, as the `traceparent` that names it. */
const activeTraceparent = () => {
  const { traceId, spanId, traceFlags } = trace.getActiveSpan()!.spanContext();
  return `00-${traceId}-${spanId}-0${traceFlags}`;
};
const named = async (name: string): Promise<ReceivedSpan> => {
  await expect.poll(() => receiver.spans.some((s) => s.name === name), { message: `span ${name}` }).toBe(true);
  return receiver.spans.find((s) => s.name === name)!;
};
const recorded = async (streamId: string): Promise<RecordedEvent[]> => store.readStream(streamId);

describe('events appended outside handleCommand', () => {
  it('a coalesced append records, for each command’s events, the span that command was sent in', async () => {
    const writer = new CoalescingWriter<Noted, number>(store, { decider: noteDecider, stream: (id) => `note-${id}` });
    const id = randomUUID();
    // Three commands of three traces, sent together: the last two wait for the first's append and leave in one.
    const sent = await Promise.all(
      ['one', 'two', 'three'].map((text) =>
        inSpan(`coalesced ${text}`, {}, async () => {
          const traceparent = activeTraceparent();
          await writer.write(id, () => [{ type: 'Noted', payload: { text } }], commandContext(clock));
          return traceparent;
        }),
      ),
    );
    const events = await recorded(`note-${id}`);
    expect(events.map((e) => e.payload)).toEqual([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    expect(events.map((e) => e.metadata.traceparent)).toEqual(sent);
    // The second and third did share an append (one position's high bits): the merge kept each its own.
    expect(events[1]!.position >> 16n).toBe(events[2]!.position >> 16n);
    expect(new Set(sent.map((t) => t.slice(3, 35))).size).toBe(3);
  });

  it('a direct append (an agent’s report, a sign-in record) records the active span; outside any span, none', async () => {
    const stream = `report-${randomUUID()}`;
    const inside = await inSpan('report handled', {}, async () => {
      await store.append(stream, [{ type: 'Reported', payload: {}, metadata: eventMetadata(commandContext(clock)) }], 'any');
      return activeTraceparent();
    });
    await store.append(stream, [{ type: 'Reported', payload: {}, metadata: eventMetadata(commandContext(clock)) }], 'any');
    const [traced, untraced] = await recorded(stream);
    expect(inside).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(traced!.metadata.traceparent).toBe(inside);
    expect(untraced!.metadata).not.toHaveProperty('traceparent');
    // The append itself was a span of that trace, a child of the span the event records.
    const handled = await named('report handled');
    await expect.poll(() => receiver.spans.some((s) => s.name === 'event store append report' && s.parentSpanId === handled.spanId)).toBe(true);
  });
});

describe('a reaction to an event', () => {
  /** Appends one `Noted` through handleCommand inside `inTraceOf` the trigger's recorded trace, as a follower of the log does. */
  const react = (trigger: RecordedEvent, streamId: string) =>
    inTraceOf(trigger.metadata.traceparent, 'reaction', { 'es.event': trigger.id }, async () => {
      await handleCommand({ store, streamId, decider: noteDecider, command: { text: 'because' }, context: commandContext(clock, { causationId: trigger.id }) });
      return trace.getActiveSpan()?.spanContext().spanId;
    }, SpanKind.CONSUMER);

  it('continues the trace the event recorded: its span is a child of the span the event was made in, and what it appends records it', async () => {
    const source = `trigger-${randomUUID()}`;
    const origin = await inSpan('origin command', {}, async () => {
      await handleCommand({ store, streamId: source, decider: noteDecider, command: { text: 'first' }, context: commandContext(clock) });
      return activeTraceparent();
    });
    const [trigger] = await recorded(source);
    expect(trigger!.metadata.traceparent).toBe(origin);
    const target = `reaction-${randomUUID()}`;
    const reactionSpanId = await react(trigger!, target);
    const [caused] = await recorded(target);
    expect(caused!.metadata.traceparent).toBe(`00-${origin.slice(3, 35)}-${reactionSpanId}-01`);
    const reaction = await named('reaction');
    expect(reaction).toMatchObject({ traceId: origin.slice(3, 35), parentSpanId: origin.slice(36, 52), spanId: reactionSpanId, kind: 5 });
  });

  it('to an event of untraced work runs in a trace of its own, not in the trace of whoever runs it', async () => {
    const source = `untraced-${randomUUID()}`;
    await handleCommand({ store, streamId: source, decider: noteDecider, command: { text: 'quiet' }, context: commandContext(clock) });
    const [trigger] = await recorded(source);
    expect(trigger!.metadata).not.toHaveProperty('traceparent');
    const target = `reaction-${randomUUID()}`;
    const runner = await inSpan('follower loop', {}, async () => {
      await react(trigger!, target);
      return trace.getActiveSpan()!.spanContext().traceId;
    });
    const [caused] = await recorded(target);
    const traceId = caused!.metadata.traceparent!.slice(3, 35);
    expect(traceId).not.toBe(runner);
    await expect.poll(() => receiver.spans.some((s) => s.name === 'reaction' && s.traceId === traceId && s.parentSpanId === '')).toBe(true);
  });

  it('to an event of a trace that was not sampled stays in it, not sampled, and records no span', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const source = `unsampled-${randomUUID()}`;
    // A command run in a trace a caller flagged not sampled (the request's short path runs in such a context).
    await inSpan('never recorded', {}, () => handleCommand({ store, streamId: source, decider: noteDecider, command: { text: 'off' }, context: commandContext(clock) }), SpanKind.INTERNAL, contextFrom({ traceparent: `00-${traceId}-00f067aa0ba902b7-00` }));
    const [trigger] = await recorded(source);
    expect(trigger!.metadata.traceparent).toBe(`00-${traceId}-00f067aa0ba902b7-00`);
    const target = `reaction-${randomUUID()}`;
    expect(await react(trigger!, target)).toBe('00f067aa0ba902b7');
    const [caused] = await recorded(target);
    expect(caused!.metadata.traceparent).toBe(`00-${traceId}-00f067aa0ba902b7-00`);
    // Spans leave in the order they end: once a later one is in, none of that trace will come.
    await inSpan('unsampled marker', {}, async () => undefined);
    await named('unsampled marker');
    expect(receiver.spans.filter((s) => s.traceId === traceId)).toEqual([]);
  });
});
