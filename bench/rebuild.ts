import { randomUUID } from 'node:crypto';
import { rebuildProjection } from '#projections/runner.js';
import { BENCH_EVENT_TYPE, createBenchProjection } from './bench-projection.js';
import { num, phase } from './console.js';
import { formatCpu, measureCpu, type CpuShare } from './cpu.js';
import { countEvents, type BenchStore } from './stores.js';

export interface RebuildReport {
  store: BenchStore['name'];
  events: number;
  /** Events added beforehand, in unmeasured batched appends, to reach the minimum. */
  toppedUp: number;
  seconds: number;
  eventsPerSecond: number;
  cpu: CpuShare | null;
}

const TOP_UP_BATCH = 500;

/** Appends events in large batches, unmeasured, until the log holds at least `minimum` bench events. */
async function topUp(target: BenchStore, minimum: number): Promise<number> {
  const before = await countEvents(target.db, BENCH_EVENT_TYPE);
  let have = before;
  if (have >= minimum) return 0;
  const ticker = phase(`topping up ${target.name} to ${num(minimum)} events (batched appends of ${TOP_UP_BATCH}, not measured)`, () => (have - before) / (minimum - before));
  const run = randomUUID().slice(0, 8);
  for (let stream = 0; have < minimum; stream++) {
    const events = Array.from({ length: TOP_UP_BATCH }, (_, i) => ({
      type: BENCH_EVENT_TYPE,
      payload: { writer: -1, sequence: stream * TOP_UP_BATCH + i },
      metadata: { occurredAt: new Date().toISOString(), correlationId: run },
    }));
    await target.store.append(`bench-topup-${run}.${stream}`, events, 'no_stream');
    have += events.length;
  }
  ticker.done(`${num(have)} events`);
  return have - before;
}

/** Times `rebuildProjection` of the bench projection over every bench event of the store. */
export async function measureRebuild(target: BenchStore, minimumEvents: number): Promise<RebuildReport> {
  const toppedUp = await topUp(target, minimumEvents);
  const total = await countEvents(target.db, BENCH_EVENT_TYPE);
  let applied = 0;
  const ticker = phase(`rebuilding over ${num(total)} events on ${target.name}`, () => applied / total);
  const cpu = measureCpu(target.database ? { database: target.database } : {});
  const started = performance.now();
  const result = await rebuildProjection(target.store, target.db, createBenchProjection(), {
    onProgress: (n) => {
      applied = n;
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const cpuShare = cpu.stop();
  if (result.handedOver) throw new Error('the rebuild was handed over to a running projection');
  if (result.applied !== total) throw new Error(`the rebuild applied ${result.applied} of ${total} events`);
  const eventsPerSecond = result.applied / seconds;
  ticker.done(`${num(eventsPerSecond)} events/s; CPU ${formatCpu(cpuShare)}`);
  return { store: target.name, events: result.applied, toppedUp, seconds, eventsPerSecond, cpu: cpuShare };
}
