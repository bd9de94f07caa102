import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '#test/helpers/otlp-receiver.js';
import { createMemoryBus, type MessageBus } from '../bus/index.js';
import { eventMetadata, commandContext } from '../es/index.js';
import { inSpan, setIntervalOutsideTrace, startTracing, type Tracing } from './index.js';

/**
 * Trace context inside one process, with tracing on and spans exported to an OTLP receiver on loopback:
 * the in-process bus of an embedded installation carries it as the NATS bus does, a timer set inside a
 * span ticks outside it, and an event's metadata records the trace of the command that made it.
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null;
let bus: MessageBus;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' }, 'qa-propagation-test');
  expect(tracing).not.toBeNull();
  bus = createMemoryBus();
});

afterAll(async () => {
  await bus?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

const named = async (name: string): Promise<ReceivedSpan> => {
  await expect.poll(() => receiver.spans.some((s) => s.name === name), { message: `span ${name}` }).toBe(true);
  return receiver.spans.find((s) => s.name === name)!;
};
const byId = (spanId: string) => receiver.spans.find((s) => s.spanId === spanId);

describe('trace context inside one process', () => {
  it('the in-process bus carries it: a request’s handler runs in a span parented to the caller’s request span', async () => {
    await bus.subscribe('test.echo', async (msg) => {
      await inSpan('echo handled', {}, async () => undefined);
      await bus.respond(msg, msg.data);
    });
    const answer = await inSpan('bus caller', {}, () => bus.request('test.echo', new TextEncoder().encode('hi')));
    expect(new TextDecoder().decode(answer.data)).toBe('hi');
    const handled = await named('echo handled');
    const caller = await named('bus caller');
    const processed = byId(handled.parentSpanId)!;
    expect(processed).toMatchObject({ name: 'bus process test.echo', traceId: caller.traceId, attributes: { 'messaging.system': 'memory' } });
    expect(byId(processed.parentSpanId)).toMatchObject({ name: 'bus request test.echo', parentSpanId: caller.spanId, traceId: caller.traceId });
  });

  it('a published message continues the publisher’s trace; one published outside any trace runs its handler outside any', async () => {
    const seen: { traced: boolean; traceId: string | undefined }[] = [];
    await bus.subscribe('test.note', async (msg) => {
      seen.push({ traced: msg.headers?.traceparent !== undefined, traceId: trace.getActiveSpan()?.spanContext().traceId });
      if (msg.headers?.traceparent) await inSpan('note handled', {}, async () => undefined);
    });
    // The first delivery starts the subscription's delivery loop inside this span…
    await inSpan('note publisher', {}, () => bus.publish('test.note', new Uint8Array([1])));
    await expect.poll(() => seen.length).toBe(1);
    // …and a later message sent outside any trace is not handled in it.
    await bus.publish('test.note', new Uint8Array([2]));
    await expect.poll(() => seen.length).toBe(2);
    const publisher = await named('note publisher');
    expect(seen[0]).toEqual({ traced: true, traceId: publisher.traceId });
    expect(seen[1]).toEqual({ traced: false, traceId: undefined });
    const handled = await named('note handled');
    expect(handled.traceId).toBe(publisher.traceId);
    expect(byId(handled.parentSpanId)).toMatchObject({ name: 'bus process test.note', parentSpanId: publisher.spanId });
  });

  it('a durable stream’s message carries it: its consumer, however much later, continues the publisher’s trace', async () => {
    const durable = createMemoryBus({ streams: { TRACED: ['traced.>'] } });
    try {
      await inSpan('durable publisher', {}, () => durable.publishDurable('TRACED', 'traced.job', new Uint8Array([1])));
      await durable.publishDurable('TRACED', 'traced.job', new Uint8Array([2]));
      const seen: (string | undefined)[] = [];
      await durable.consumeDurable('TRACED', 'worker', async (msg) => {
        seen.push(trace.getActiveSpan()?.spanContext().traceId);
        if (msg.data[0] === 1) await inSpan('durable handled', {}, async () => undefined);
        await msg.ack();
      });
      await expect.poll(() => seen.length).toBe(2);
      const publisher = await named('durable publisher');
      expect(seen).toEqual([publisher.traceId, undefined]);
      const handled = await named('durable handled');
      expect(byId(handled.parentSpanId)).toMatchObject({ name: 'bus process traced.job', kind: 5, parentSpanId: publisher.spanId, traceId: publisher.traceId });
    } finally {
      await durable.close();
    }
  });

  it('a timer set inside a span ticks outside it: each tick’s span is the root of a trace of its own', async () => {
    let ticks = 0;
    let timer: NodeJS.Timeout | undefined;
    await inSpan('timer setter', {}, async () => {
      timer = setIntervalOutsideTrace(() => {
        ticks += 1;
        if (ticks <= 2) void inSpan(`tick ${ticks}`, {}, async () => undefined);
      }, 10);
    });
    await expect.poll(() => ticks).toBeGreaterThanOrEqual(2);
    clearInterval(timer);
    const setter = await named('timer setter');
    for (const name of ['tick 1', 'tick 2']) {
      const tick = await named(name);
      expect(tick.parentSpanId, name).toBe('');
      expect(tick.traceId, name).not.toBe(setter.traceId);
    }
  });

  it('an event’s metadata records the trace of the command that made it; outside a trace, none', async () => {
    const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
    const { inside, traceId } = await inSpan('command', {}, async () => ({ inside: eventMetadata(commandContext(clock)), traceId: trace.getActiveSpan()!.spanContext().traceId }));
    expect(inside.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(eventMetadata(commandContext(clock))).not.toHaveProperty('traceparent');
  });
});
