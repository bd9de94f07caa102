import type { Database, Sql } from '#shared/db/index.js';
import { migrateCheckpoints, ProjectionRunner } from '#projections/runner.js';
import { createBenchProjection } from './bench-projection.js';
import { note, num, phase } from './console.js';
import { formatCpu, measureCpu, type CpuShare } from './cpu.js';
import { distribution, type Distribution } from './stats.js';
import type { BenchStore } from './stores.js';
import { runWriters, type WriterResult } from './writers.js';

export interface LagOptions {
  writers: number;
  durationMs: number;
  /** Rate the writers aim at; the achieved rate is reported whatever it is. */
  targetEventsPerSecond: number;
  /** Longest wait, after the writers stop, for the projection to apply what they appended. */
  settleMs: number;
}

export interface LagReport {
  store: BenchStore['name'];
  targetEventsPerSecond: number;
  load: WriterResult;
  /** Cores used while the writers ran (the runner is in this process). */
  cpu: CpuShare | null;
  /** Append resolved → projection transaction holding the event committed, in milliseconds. */
  lag: Distribution;
  /**
   * Events the writers appended that the running projection had not applied when the wait ended;
   * they are in `lag` with the wait's end as their (lower-bound) commit time.
   */
  notApplied: number;
  /**
   * Second by second from the writers' start: events appended and applied in that second, and the
   * p50 and max lag of the events appended in it. Tells a runner that falls behind (lag growing
   * steadily) from one held back and then released (applied in bursts).
   */
  perSecond: { second: number; appended: number; applied: number; lagP50Ms: number; lagMaxMs: number }[];
  /** Rows of this run's streams in the projection's table after the wait (a check independent of the stamps). */
  rowsApplied: number;
}

/**
 * The runner's database, seen through a wrapper that notes which events each transaction applied
 * and stamps them when it commits: that is when a reader of the projection can see them.
 */
function stampingDatabase(db: Database, committedAt: Map<string, number>): { db: Database; onApplied: (tx: Sql, id: string) => void } {
  const applied = new WeakMap<Sql, string[]>();
  return {
    onApplied: (tx, id) => applied.get(tx)?.push(id),
    db: {
      dialect: db.dialect,
      query: (text, params) => db.query(text, params),
      exec: (text) => db.exec(text),
      close: () => db.close(),
      async transaction(fn) {
        const ids: string[] = [];
        const result = await db.transaction((tx) => {
          applied.set(tx, ids);
          return fn(tx);
        });
        const at = performance.now();
        for (const id of ids) committedAt.set(id, at);
        return result;
      },
    },
  };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/**
 * Projection lag under load: a `ProjectionRunner` with the bench projection runs while writers
 * append; each event's lag is the time from its append resolving to the runner's transaction that
 * applied it committing. The runner starts at the head of the log, so earlier events do not count.
 */
export async function measureProjectionLag(target: BenchStore, options: LagOptions): Promise<LagReport> {
  const resolvedAt = new Map<string, number>();
  const committedAt = new Map<string, number>();
  const stamping = stampingDatabase(target.db, committedAt);
  const projection = createBenchProjection((tx, event) => stamping.onApplied(tx, event.id));

  // Start after the newest stored event. Not `headPosition()`: any open transaction on the cluster
  // holds that frontier back, and the runner would first replay the tail of earlier steps.
  await migrateCheckpoints(target.db);
  await target.db.query(
    `INSERT INTO projection_checkpoints (name, position, version)
     SELECT $1, coalesce(max(position), 0), $2 FROM es_events
     ON CONFLICT (name) DO UPDATE SET position = excluded.position, version = excluded.version`,
    [projection.name, projection.version],
  );
  const runner = new ProjectionRunner({ store: target.store, db: stamping.db, projections: [projection] });
  await runner.start();
  try {
    const ticker = phase(
      `${options.writers} writers, aiming at ${num(options.targetEventsPerSecond)} events/s for ${options.durationMs / 1000} s, runner applying`,
    );
    const cpu = measureCpu(target.database ? { database: target.database } : {});
    const startedAt = performance.now();
    const load = await runWriters(target.store, {
      writers: options.writers,
      eventsPerAppend: 1,
      durationMs: options.durationMs,
      streamCategory: 'bench-lag',
      targetEventsPerSecond: options.targetEventsPerSecond,
      onAppended: (ids, at) => {
        for (const id of ids) resolvedAt.set(id, at);
      },
    });
    const cpuShare = cpu.stop();
    ticker.done(`${num(load.eventsPerSecond)} events/s achieved; CPU ${formatCpu(cpuShare)}`);
    const settling = phase('waiting for the projection to apply the rest');
    const pending = () => {
      let n = 0;
      for (const id of resolvedAt.keys()) if (!committedAt.has(id)) n++;
      return n;
    };
    const complete = await until(() => pending() === 0, options.settleMs);
    settling.done(complete ? 'done' : `gave up after ${options.settleMs / 1000} s`);

    const waitEnded = performance.now();
    const lags: number[] = [];
    let notApplied = 0;
    for (const [id, resolved] of resolvedAt) {
      const committed = committedAt.get(id);
      if (committed === undefined) notApplied++;
      // Leaving an unapplied event out would flatter the percentiles; its lag is at least this.
      lags.push((committed ?? waitEnded) - resolved);
    }
    const { rows } = await target.db.query<{ n: string | number }>('SELECT count(*) AS n FROM bench_samples WHERE stream_id LIKE $1', [
      `bench-lag-${load.run}.%`,
    ]);
    const perSecond: LagReport['perSecond'] = [];
    const bucket = (t: number) => Math.max(0, Math.floor((t - startedAt) / 1000));
    const lagsBySecond: number[][] = [];
    const appliedBySecond: number[] = [];
    for (const [id, resolved] of resolvedAt) {
      const committed = committedAt.get(id);
      (lagsBySecond[bucket(resolved)] ??= []).push((committed ?? waitEnded) - resolved);
      if (committed !== undefined) appliedBySecond[bucket(committed)] = (appliedBySecond[bucket(committed)] ?? 0) + 1;
    }
    for (let second = 0; second < Math.max(lagsBySecond.length, appliedBySecond.length); second++) {
      const d = distribution(lagsBySecond[second] ?? []);
      perSecond.push({ second, appended: d.count, applied: appliedBySecond[second] ?? 0, lagP50Ms: d.p50, lagMaxMs: d.max });
    }
    note(`per second, appended: ${perSecond.map((p) => p.appended).join(' ')}`);
    note(`per second, applied:  ${perSecond.map((p) => p.applied).join(' ')}`);
    if (notApplied > 0) note(`${num(notApplied)} appended events were still not applied ${options.settleMs / 1000} s after the writers stopped`);
    return {
      store: target.name,
      load,
      cpu: cpuShare,
      lag: distribution(lags),
      targetEventsPerSecond: options.targetEventsPerSecond,
      notApplied,
      perSecond,
      rowsApplied: Number(rows[0]?.n ?? 0),
    };
  } finally {
    await runner.stop();
  }
}
