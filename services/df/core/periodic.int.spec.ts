import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSpan, startTracing, type Tracing } from '#shared/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver } from '#test/helpers/otlp-receiver.js';
import { PeriodicJob } from './periodic.js';

/**
 * A periodic job started while a request is traced (a sweeper started lazily) runs outside that trace:
 * with tracing on, each run's span is the root of a trace of its own, never a child of the request.
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
  it('a job started inside a request’s span runs each tick as a root span, not in the request’s trace', async () => {
    let runs = 0;
    const failures: unknown[] = [];
    const job = new PeriodicJob(() => inSpan('periodic run', { run: ++runs }, async () => undefined), (err) => failures.push(err));
    await inSpan('request starting a job', {}, async () => job.start(10));
    await expect.poll(() => receiver.spans.filter((s) => s.name === 'periodic run').length).toBeGreaterThanOrEqual(2);
    await job.stop();
    await expect.poll(() => receiver.spans.some((s) => s.name === 'request starting a job')).toBe(true);
    const request = receiver.spans.find((s) => s.name === 'request starting a job')!;
    const runSpans = receiver.spans.filter((s) => s.name === 'periodic run');
    for (const run of runSpans) {
      expect(run.parentSpanId).toBe('');
      expect(run.traceId).not.toBe(request.traceId);
    }
    expect(new Set(runSpans.map((r) => r.traceId)).size).toBe(runSpans.length);
    expect(failures).toEqual([]);
  });
});
