import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSpan, startTracing, type Tracing } from '#shared/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver } from '#test/helpers/otlp-receiver.js';
import { PeriodicJob } from './periodic.js';

/**
 * A periodic job started while a request is traced (a sweeper started lazily) runs outside that trace:
 * with tracing on, each run that finds work is the root span `df.periodic <name>` of a trace of its own,
 * never a child of the request, and a run that finds nothing makes no span.
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' }, 'qa-periodic-test');
  expect(tracing).not.toBeNull();
});

afterAll(async () => {
  await tracing?.shutdown();
  await receiver?.close();
});

describe('PeriodicJob with tracing on', () => {
  it('a job started inside a request’s span runs each tick with work as a root span, its work under it, not in the request’s trace', async () => {
    let runs = 0;
    const failures: unknown[] = [];
    const job = new PeriodicJob('test', (tick) => tick.work(() => inSpan('periodic run', { run: ++runs }, async () => undefined)), (err) => failures.push(err));
    await inSpan('request starting a job', {}, async () => job.start(10));
    await expect.poll(() => receiver.spans.filter((s) => s.name === 'periodic run').length).toBeGreaterThanOrEqual(2);
    await job.stop();
    await expect.poll(() => receiver.spans.some((s) => s.name === 'request starting a job')).toBe(true);
    const request = receiver.spans.find((s) => s.name === 'request starting a job')!;
    const runSpans = receiver.spans.filter((s) => s.name === 'periodic run');
    for (const run of runSpans) {
      const tick = receiver.spans.find((s) => s.spanId === run.parentSpanId);
      expect(tick).toMatchObject({ name: 'df.periodic test', parentSpanId: '', traceId: run.traceId });
      expect(run.traceId).not.toBe(request.traceId);
    }
    expect(new Set(runSpans.map((r) => r.traceId)).size).toBe(runSpans.length);
    expect(failures).toEqual([]);
  });

  it('a run that finds nothing to do makes no span; a run that fails after finding work is a failed span', async () => {
    let runs = 0;
    const failures: unknown[] = [];
    // Work on the fifth run only, which fails; the four before find nothing.
    const job = new PeriodicJob(
      'sparse',
      async (tick) => {
        if (++runs !== 5) return;
        tick.count('items.due', 1);
        await tick.work(async () => Promise.reject(new Error('the item went away')));
      },
      (err) => failures.push(err),
    );
    job.start(10);
    await expect.poll(() => failures.length).toBe(1);
    await job.stop();
    await expect.poll(() => receiver.spans.some((s) => s.name === 'df.periodic sparse')).toBe(true);
    // Spans leave in the order they end: one ended after every run has arrived once it has.
    await inSpan('after the runs', {}, async () => undefined);
    await expect.poll(() => receiver.spans.some((s) => s.name === 'after the runs')).toBe(true);
    expect(runs).toBeGreaterThanOrEqual(5);
    expect(receiver.spans.filter((s) => s.name === 'df.periodic sparse')).toEqual([expect.objectContaining({ parentSpanId: '', statusCode: 2, attributes: { 'items.due': 1 } })]);
  });
});
