import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent } from '#shared/es/index.js';
import { BENCH_EVENT_TYPE, type BenchSamplePayload } from './bench-projection.js';
import { distribution, type Distribution } from './stats.js';

/** Events a writer appends to one stream before it starts the next, as an aggregate's life would end. */
const EVENTS_PER_STREAM = 100;

export interface WriterOptions {
  writers: number;
  eventsPerAppend: number;
  durationMs: number;
  /** Stream names are `<streamCategory>-<run>.<writer>.<n>`, so runs never meet. */
  streamCategory: string;
  /** Total events/s to aim at; writers go flat out when absent or when they cannot keep up. */
  targetEventsPerSecond?: number;
  /** Writers' events carry `metadata.companyId` 1..companies (writer by writer), so they form that many chains; absent: none. */
  companies?: number;
  /** Writers' events carry an actor (the writer, as user `w + 1`) and a client's address, as a request's events do. */
  actors?: boolean;
  /** Called as each append resolves, with its event ids and `performance.now()` at that moment. */
  onAppended?: (ids: readonly string[], resolvedAt: number) => void;
}

export interface WriterResult {
  /** Tag in every stream name of this run: `<streamCategory>-<run>.<writer>.<n>`. */
  run: string;
  writers: number;
  eventsPerAppend: number;
  seconds: number;
  appends: number;
  events: number;
  eventsPerSecond: number;
  /** How long each append took, in milliseconds. */
  appendLatency: Distribution;
}

/**
 * Runs `writers` concurrent loops, each appending to streams of its own with the exact expected
 * revision (`no_stream` for a stream's first append), until the duration is up.
 */
export async function runWriters(store: EventStore, options: WriterOptions): Promise<WriterResult> {
  const run = randomUUID().slice(0, 8);
  const started = performance.now();
  const deadline = started + options.durationMs;
  const latencies: number[] = [];
  let events = 0;
  // Each writer's share of the target rate, as the interval between its appends.
  const interval = options.targetEventsPerSecond
    ? (1000 * options.eventsPerAppend * options.writers) / options.targetEventsPerSecond
    : 0;

  const writer = async (w: number): Promise<void> => {
    let stream = 0;
    let revision = -1;
    for (let n = 0; ; n++) {
      const due = started + n * interval;
      let now = performance.now();
      if (now >= deadline) return;
      if (due > now) {
        await new Promise((resolve) => setTimeout(resolve, due - now));
        now = performance.now();
        if (now >= deadline) return;
      }
      if (revision + options.eventsPerAppend >= EVENTS_PER_STREAM) {
        stream++;
        revision = -1;
      }
      const batch: NewEvent<typeof BENCH_EVENT_TYPE, BenchSamplePayload>[] = [];
      for (let i = 0; i < options.eventsPerAppend; i++) {
        batch.push({
          id: randomUUID(),
          type: BENCH_EVENT_TYPE,
          payload: { writer: w, sequence: n * options.eventsPerAppend + i },
          metadata: {
            occurredAt: new Date().toISOString(),
            correlationId: run,
            ...(options.companies ? { companyId: (w % options.companies) + 1 } : {}),
            ...(options.actors ? { actorId: w + 1, clientAddress: `10.0.${w}.1` } : {}),
          },
        });
      }
      const result = await store.append(
        `${options.streamCategory}-${run}.${w}.${stream}`,
        batch,
        revision === -1 ? 'no_stream' : revision,
      );
      const resolvedAt = performance.now();
      latencies.push(resolvedAt - now);
      revision = result.nextExpectedRevision;
      events += batch.length;
      options.onAppended?.(
        batch.map((e) => e.id!),
        resolvedAt,
      );
    }
  };

  await Promise.all(Array.from({ length: options.writers }, (_, w) => writer(w)));
  const seconds = (performance.now() - started) / 1000;
  return {
    run,
    writers: options.writers,
    eventsPerAppend: options.eventsPerAppend,
    seconds,
    appends: latencies.length,
    events,
    eventsPerSecond: events / seconds,
    appendLatency: distribution(latencies),
  };
}
