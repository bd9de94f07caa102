import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '#test/helpers/otlp-receiver.js';
import { openPglite, type Database } from '../db/index.js';
import { commandContext, createSqlEventStore, eventMetadata, migrateSqlEventStore, type EventStore } from '../es/index.js';
import { createLogger } from '../logger.js';
import { inSpan, inTick, startTracing, tracedEventStore, traceHeaders, tracingActive, UNTRACED, type Tick, type Tracing } from './index.js';

/**
 * A timer's tick (`inTick`) with tracing off and on, spans exported to an OTLP receiver on loopback and
 * appends made to a real event store (PGlite, wrapped as the platform wraps it): off, the work runs
 * alone and nothing is made; on, a tick that finds work is one root span with what the work did under
 * it, and a tick that finds none makes no span at all.
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null = null;
let db: Database;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  db = await openPglite();
  await migrateSqlEventStore(db);
});

afterAll(async () => {
  await db?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

const spansNamed = (name: string) => receiver.spans.filter((s) => s.name === name);
const named = async (name: string): Promise<ReceivedSpan> => {
  await expect.poll(() => spansNamed(name).length, { message: `span ${name}` }).toBeGreaterThan(0);
  return spansNamed(name)[0]!;
};
/** A span ended after everything before it: once it arrived, what ended earlier arrived too (spans leave in the order they end). */
const flushed = async () => {
  const marker = `marker ${randomUUID()}`;
  await inSpan(marker, {}, async () => undefined);
  await named(marker);
};
/** A note's event, its metadata made where it is appended (it records the trace it is made in). */
const note = (text: string) => [{ type: 'Noted', payload: { text }, metadata: eventMetadata(commandContext({ now: () => new Date() })) }];

describe('a tick with tracing off', () => {
  it('runs its work alone: the tick records nothing, no span is active, nothing is sent on', async () => {
    expect(tracingActive()).toBe(false);
    const store = tracedEventStore(createSqlEventStore(db));
    let given: Tick | undefined;
    const inside = await inTick('off.sweep', async (tick) => {
      given = tick;
      tick.count('rows.removed', 3);
      return tick.work(async () => {
        await store.append(`note-${randomUUID()}`, note('off'), 'any');
        return { span: trace.getActiveSpan(), headers: traceHeaders() };
      });
    });
    // The one shared do-nothing tick: no object made per tick, no span, no header.
    expect(given).toBe(UNTRACED);
    expect(inside).toEqual({ span: undefined, headers: {} });
  });
});

describe('a tick with tracing on', () => {
  let store: EventStore;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' }, 'qa-ticks-test');
    expect(tracing).not.toBeNull();
    store = tracedEventStore(createSqlEventStore(db));
  });

  it('that finds work is one root span, with what it did as attributes and its appends and log lines under it', async () => {
    const logger = createLogger({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    // Set inside a request's span, as a sweeper started lazily is: the tick is still a trace of its own.
    await inSpan('request around', {}, () =>
      inTick(
        'test.sweep',
        async (tick) => {
          const due = ['a', 'b'];
          tick.count('items.handled', due.length);
          for (const text of due) await tick.work(() => store.append(`note-${randomUUID()}`, note(text), 'any'));
          await tick.work(async () => logger.info('swept'));
        },
        { 'test.kind': 'notes' },
      ),
    );
    const sweep = await named('test.sweep');
    const request = await named('request around');
    expect(sweep).toMatchObject({ parentSpanId: '', statusCode: 0, attributes: { 'test.kind': 'notes', 'items.handled': 2 } });
    expect(sweep.traceId).not.toBe(request.traceId);
    await expect.poll(() => spansNamed('event store append note').filter((s) => s.traceId === sweep.traceId).length).toBe(2);
    for (const append of spansNamed('event store append note').filter((s) => s.traceId === sweep.traceId)) expect(append.parentSpanId).toBe(sweep.spanId);
    expect(lines.find((l) => l.msg === 'swept')).toMatchObject({ trace_id: sweep.traceId, span_id: sweep.spanId });
  });

  it('leaves the store\'s other methods its own, bound once: the same function at every access, reading what was appended', async () => {
    const stream = `note-${randomUUID()}`;
    await store.append(stream, note('read back'), 'any');
    expect(store.readStream).toBe(store.readStream);
    const { readStream } = store;
    expect((await readStream(stream)).map((e) => (e.payload as { text: string }).text)).toEqual(['read back']);
  });

  it('that only counts what it did (a sweep’s one DELETE) is a root span of its own too', async () => {
    await inTick('test.delete', async (tick) => tick.count('rows.removed', 5));
    expect(await named('test.delete')).toMatchObject({ parentSpanId: '', attributes: { 'rows.removed': 5 } });
  });

  it('that finds nothing makes no span, and its work outside `tick.work` runs outside any trace', async () => {
    let active: unknown = 'not run';
    await inSpan('request around an idle tick', {}, () =>
      inTick('test.idle', async (tick) => {
        tick.count('rows.removed', 0);
        active = trace.getActiveSpan();
      }),
    );
    expect(active).toBeUndefined();
    await flushed();
    expect(spansNamed('test.idle')).toEqual([]);
  });

  it('that fails is a failed span, once it had found work; a failure before any work makes none', async () => {
    await expect(inTick('test.failing', async (tick) => tick.work(async () => Promise.reject(new Error('the store went away'))))).rejects.toThrow('the store went away');
    await expect(inTick('test.failing-early', async () => Promise.reject(new Error('no database')))).rejects.toThrow('no database');
    expect(await named('test.failing')).toMatchObject({ parentSpanId: '', statusCode: 2 });
    await flushed();
    expect(spansNamed('test.failing-early')).toEqual([]);
  });
});
