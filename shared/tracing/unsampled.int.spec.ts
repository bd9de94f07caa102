import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '#test/helpers/otlp-receiver.js';
import { createMemoryBus, type MessageBus } from '../bus/index.js';
import { inChildSpan, inSpan, inTick, installHttpTracing, logTraceFields, startTracing, traceHeaders, tracedBus, type Tracing } from './index.js';

/**
 * A request that is not sampled (here every trace of its own: `parentbased_traceidratio` at 0), or a
 * timer's tick that found work, takes the short path: no span of any kind, only a context whose
 * `traceparent` (flag off) travels on, so that nothing downstream samples it either. A received
 * sampled `traceparent` is still continued.
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null;
let app: FastifyInstance;
let bus: MessageBus;
let url: string;

interface Seen {
  sent: Record<string, string>;
  logged: { trace_id?: string; span_id?: string };
  handledHeaders?: Record<string, string>;
}
const seen = new Map<string, Seen>();

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing(
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
    'qa-unsampled-test',
  );
  expect(tracing).not.toBeNull();
  bus = tracedBus(createMemoryBus());
  await bus.subscribe('test.probe', async (msg) => {
    await inSpan('probe handled', {}, async () => undefined);
    seen.get(new TextDecoder().decode(msg.data))!.handledHeaders = msg.headers ?? {};
    await bus.respond(msg, msg.data);
  });
  app = Fastify();
  installHttpTracing(app);
  app.get('/probe/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    seen.set(name, { sent: traceHeaders(), logged: logTraceFields() });
    await inSpan('probe inner', {}, () => inChildSpan('probe leaf', {}, async () => undefined));
    await bus.request('test.probe', new TextEncoder().encode(name));
    return reply.code(name === 'failing' ? 503 : 200).send({ name });
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await bus?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

const PARENT_SPAN = '00f067aa0ba902b7';
const probe = (name: string, traceparent?: string) => fetch(`${url}/probe/${name}`, { headers: traceparent ? { traceparent } : {} }).then((r) => r.status);

/**
 * Sends `name` as the child of a sampled caller (a trace of its own) and waits for its spans. Spans are
 * exported in the order they end: once a later sampled request's spans are in, an earlier request's
 * would be too. Answers the trace id.
 */
async function afterASampledRequest(name: string): Promise<string> {
  const traceId = randomBytes(16).toString('hex');
  expect(await probe(name, `00-${traceId}-${PARENT_SPAN}-01`)).toBe(name === 'failing' ? 503 : 200);
  await expect.poll(() => receiver.spans.some((s) => s.attributes['http.route'] === '/probe/:name' && s.traceId === traceId), { message: `${name}'s server span` }).toBe(true);
  await expect.poll(() => receiver.spans.some((s) => s.name === 'probe handled' && s.traceId === traceId)).toBe(true);
  return traceId;
}
const sampledTraces = new Set<string>();

describe('a request that is not sampled', () => {
  it('makes no span at all, and sends on its trace flagged not sampled; its log lines carry no trace id', async () => {
    expect(await probe('root')).toBe(200);
    sampledTraces.add(await afterASampledRequest('marker-1'));
    const root = seen.get('root')!;
    expect(root.sent.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(root.logged).toEqual({});
    // Over the bus too: the handler got the trace, flagged off, and its span made nothing.
    expect(root.handledHeaders?.traceparent).toMatch(new RegExp(`^00-${root.sent.traceparent!.slice(3, 35)}-[0-9a-f]{16}-00$`));
    const spans = receiver.spans.filter((s) => !sampledTraces.has(s.traceId));
    expect(spans).toEqual([]);
  });

  it('a received traceparent flagged not sampled is kept: the same trace id goes on, still not sampled, and nothing is recorded', async () => {
    const traceId = 'a1a2a3a4a5a6a7a8a9aaabacadaeaf00';
    expect(await probe('parent-off', `00-${traceId}-b1b2b3b4b5b6b7b8-00`)).toBe(200);
    sampledTraces.add(await afterASampledRequest('marker-2'));
    expect(seen.get('parent-off')!.sent.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    expect(receiver.spans.some((s) => s.traceId === traceId)).toBe(false);
  });

  it('two requests not sampled travel under different trace ids', async () => {
    await probe('first');
    await probe('second');
    expect(seen.get('first')!.sent.traceparent!.slice(3, 35)).not.toBe(seen.get('second')!.sent.traceparent!.slice(3, 35));
  });
});

describe('a timer’s tick that is not sampled', () => {
  it('makes no span for itself or what its work calls, and what its work sends on is flagged not sampled', async () => {
    seen.set('tick', { sent: {}, logged: {} });
    const sent = await inTick('unsampled.sweep', async (tick) => {
      tick.count('rows.removed', 2);
      return tick.work(async () => {
        await inSpan('tick inner', {}, () => inChildSpan('tick leaf', {}, async () => undefined));
        await bus.request('test.probe', new TextEncoder().encode('tick'));
        return { headers: traceHeaders(), logged: logTraceFields() };
      });
    });
    sampledTraces.add(await afterASampledRequest('marker-3'));
    expect(sent.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(sent.logged).toEqual({});
    expect(seen.get('tick')!.handledHeaders?.traceparent).toMatch(new RegExp(`^00-${sent.headers.traceparent!.slice(3, 35)}-[0-9a-f]{16}-00$`));
    expect(receiver.spans.filter((s) => !sampledTraces.has(s.traceId))).toEqual([]);
  });
});

describe('a request that carries a sampled traceparent', () => {
  it('is continued: its server span is the caller’s child, what it calls and sends over the bus are its children, the status is recorded', async () => {
    const traceId = await afterASampledRequest('sampled');
    const mine = receiver.spans.filter((s) => s.traceId === traceId);
    const server = mine.find((s) => s.name === 'GET /probe/:name' && s.parentSpanId === PARENT_SPAN)!;
    expect(server).toMatchObject({ kind: 2, attributes: { 'http.response.status_code': 200, 'http.request.method': 'GET' } });
    const inner = mine.find((s) => s.name === 'probe inner' && s.parentSpanId === server.spanId)!;
    expect(inner).toBeDefined();
    expect(mine.some((s) => s.name === 'probe leaf' && s.parentSpanId === inner.spanId)).toBe(true);
    expect(seen.get('sampled')!.sent.traceparent).toBe(`00-${traceId}-${server.spanId}-01`);
    expect(seen.get('sampled')!.logged).toEqual({ trace_id: traceId, span_id: server.spanId });
  });

  it('a 5xx answer fails the span', async () => {
    const traceId = await afterASampledRequest('failing');
    const failing = receiver.spans.find((s) => s.traceId === traceId && s.name === 'GET /probe/:name');
    expect(failing?.attributes['http.response.status_code']).toBe(503);
    expect(failing?.statusCode).toBe(2);
  });
});
