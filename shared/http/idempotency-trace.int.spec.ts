import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '#shared/auth/index.js';
import { openPglite, type Database } from '#shared/db/index.js';
import { inSpan, startTracing, type Tracing } from '#shared/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver } from '#test/helpers/otlp-receiver.js';
import { installIdempotency } from './idempotency.js';
import { IdempotencyStore } from './idempotency-store.js';

/**
 * The idempotency sweeper with tracing on, spans exported to an OTLP receiver on loopback, on a real
 * (PGlite) database: it sweeps every 20 ms, and only the sweep that deleted an expired key is a span
 * (`idempotency.sweep`, the root of a trace of its own, with the rows it removed); the sweeps that found
 * nothing to delete make none.
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null;
let db: Database;
let app: FastifyInstance;
let clock = Date.now();
/** The sweeper's DELETEs run so far. */
let sweeps = 0;

const TTL_MS = 60_000;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' }, 'qa-idempotency-trace-test');
  expect(tracing).not.toBeNull();
  db = await openPglite();
  // The database the sweeper is given counts its sweeps, so that the test knows idle ones ran.
  const counted = new Proxy(db, {
    get(target, property) {
      if (property !== 'query') return Reflect.get(target, property, target) as unknown;
      return (text: string, params?: unknown[]) => {
        if (text.startsWith('DELETE FROM idempotency_keys')) sweeps += 1;
        return target.query(text, params);
      };
    },
  });
  app = Fastify();
  // Started inside a request's span, as a server started lazily might be: the sweeps are still traces of their own.
  await inSpan('starting the server', {}, async () =>
    installIdempotency(app, { db: counted, ttlMs: TTL_MS, inFlightMs: 10_000, maxAnswerBytes: 64, box: new SecretBox(randomBytes(32)), now: () => new Date(clock), sweepIntervalMs: 20 }),
  );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await db?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

const sweepSpans = () => receiver.spans.filter((s) => s.name === 'idempotency.sweep');

describe('the idempotency sweeper with tracing on', () => {
  it('makes one root span for the sweep that removed a key, and none for the sweeps that found nothing', async () => {
    const keys = new IdempotencyStore(db, { ttlMs: TTL_MS, inFlightMs: 10_000 });
    expect((await keys.claim('1/7/5/user', 'sweep-me', 'f1', new Date(clock))).kind).toBe('claimed');
    // Sweeps while the key is within its time to live: nothing to delete.
    await expect.poll(() => sweeps).toBeGreaterThanOrEqual(3);
    clock += TTL_MS + 1;
    await expect.poll(() => sweepSpans().length).toBe(1);
    expect(sweepSpans()[0]).toMatchObject({ parentSpanId: '', statusCode: 0, attributes: { 'rows.removed': 1 } });
    const starting = receiver.spans.find((s) => s.name === 'starting the server');
    expect(starting).toBeDefined();
    expect(starting!.traceId).not.toBe(sweepSpans()[0]!.traceId);
    // More sweeps with nothing left; then a span ended after them all has arrived (spans leave in the order they end).
    const after = sweeps;
    await expect.poll(() => sweeps).toBeGreaterThanOrEqual(after + 3);
    await inSpan('after the sweeps', {}, async () => undefined);
    await expect.poll(() => receiver.spans.some((s) => s.name === 'after the sweeps')).toBe(true);
    expect(sweepSpans()).toHaveLength(1);
    expect(await keys.claim('1/7/5/user', 'sweep-me', 'f2', new Date(clock))).toMatchObject({ kind: 'claimed' });
  });
});
