/*
 * Group commit, side by side: single-event appends by 16 writers on a store with group commit on and on
 * one with it off, taking turns within the same run (so both see the same load of the machine), with
 * the time from an append's acknowledgement to a live subscriber receiving the event.
 */
import { note, num, phase, table } from './console.js';
import { formatCpu, measureCpu, type CpuShare } from './cpu.js';
import { distribution, type Distribution } from './stats.js';
import { openPgliteStore, openPostgresStore, type BenchStore } from './stores.js';
import { runWriters, type WriterResult } from './writers.js';

export interface GroupCommitOptions {
  writers: number;
  durationMs: number;
  /** Each round runs off, then on; more rounds show how much the machine's load moves the figures. */
  rounds: number;
  /** Longest wait, after the writers stop, for the subscriber to receive the rest. */
  settleMs: number;
}

export interface GroupCommitRun {
  store: BenchStore['name'];
  groupCommit: boolean;
  round: number;
  load: WriterResult;
  /** Append acknowledged → a live subscription of the same store delivered the event, in milliseconds. */
  lag: Distribution;
  /** Events the subscriber had not received when the wait ended (counted in `lag` at the wait's end). */
  notDelivered: number;
  /** Appends per group statement (group commit on only). */
  appendsPerGroup: number | null;
  cpu: CpuShare | null;
}

async function runOnce(target: BenchStore, groupCommit: boolean, round: number, options: GroupCommitOptions): Promise<GroupCommitRun> {
  const category = `bench-gc${round}${groupCommit ? 'on' : 'off'}`;
  const resolvedAt = new Map<string, number>();
  const deliveredAt = new Map<string, number>();
  const subscription = target.store.subscribe({ after: await target.store.headPosition(), filter: { streamPrefixes: [`${category}-`] } });
  const receiving = (async () => {
    for await (const event of subscription) deliveredAt.set(event.id, performance.now());
  })();
  const stats = target.store.groupCommitStats;
  const before = stats ? { ...stats } : undefined;
  const ticker = phase(`${target.name.padEnd(10)} group commit ${groupCommit ? 'on ' : 'off'}, round ${round}: ${options.writers} writers, 1 event/append, ${options.durationMs / 1000} s`);
  const cpu = measureCpu(target.database ? { database: target.database } : {});
  const load = await runWriters(target.store, {
    writers: options.writers,
    eventsPerAppend: 1,
    durationMs: options.durationMs,
    streamCategory: category,
    onAppended: (ids, at) => {
      for (const id of ids) resolvedAt.set(id, at);
    },
  });
  const cpuShare = cpu.stop();
  const deadline = performance.now() + options.settleMs;
  while (deliveredAt.size < resolvedAt.size && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await subscription.close();
  await receiving;
  const waitEnded = performance.now();
  const lags: number[] = [];
  let notDelivered = 0;
  for (const [id, resolved] of resolvedAt) {
    const delivered = deliveredAt.get(id);
    if (delivered === undefined) notDelivered++;
    // The in-process wake-up can deliver an event before the writer's own promise callback ran: 0, not less.
    lags.push(Math.max(0, (delivered ?? waitEnded) - resolved));
  }
  const lag = distribution(lags);
  const appendsPerGroup = stats && before && stats.groups > before.groups ? (stats.appends - before.appends) / (stats.groups - before.groups) : null;
  ticker.done(`${num(load.eventsPerSecond)} events/s, lag p99 ${num(lag.p99, 1)} ms${appendsPerGroup ? `, ${num(appendsPerGroup, 1)} appends/group` : ''}; CPU ${formatCpu(cpuShare)}`);
  return { store: target.name, groupCommit, round, load, lag, notDelivered, appendsPerGroup, cpu: cpuShare };
}

/** PostgreSQL, then PGlite: a fresh store with group commit off and one with it on, taking turns. */
export async function measureGroupCommit(options: GroupCommitOptions): Promise<GroupCommitRun[]> {
  const runs: GroupCommitRun[] = [];
  for (const open of [openPostgresStore, openPgliteStore]) {
    const off = await open({ groupCommit: false });
    try {
      const on = await open({ groupCommit: true });
      try {
        for (let round = 1; round <= options.rounds; round++) {
          runs.push(await runOnce(off, false, round, options));
          runs.push(await runOnce(on, true, round, options));
        }
      } finally {
        await on.dispose();
      }
    } finally {
      await off.dispose();
    }
  }
  note('each round ran group commit off, then on, on fresh stores of the same kind; ratios compare the two of one round');
  return runs;
}

export function formatGroupCommit(runs: GroupCommitRun[]): string {
  const rows = runs.map((r) => {
    const baseline = runs.find((b) => b.store === r.store && b.round === r.round && !b.groupCommit);
    const ratio = r.groupCommit && baseline ? `×${num(r.load.eventsPerSecond / baseline.load.eventsPerSecond, 2)}` : '';
    return [
      r.store,
      r.groupCommit ? 'on' : 'off',
      String(r.round),
      num(r.load.eventsPerSecond),
      ratio,
      num(r.load.appendLatency.p50, 2),
      num(r.load.appendLatency.p99, 2),
      num(r.lag.p50, 2),
      num(r.lag.p99, 2),
      num(r.notDelivered),
      r.appendsPerGroup === null ? '' : num(r.appendsPerGroup, 1),
      formatCpu(r.cpu),
    ];
  });
  return (
    'Group commit — 16 writers, one event per append, streams of their own, exact expected revisions; lag = append acknowledged → live subscriber received it\n' +
    table(['store', 'group commit', 'round', 'events/s', 'vs off', 'append p50 ms', 'append p99 ms', 'lag p50 ms', 'lag p99 ms', 'not delivered', 'appends/group', 'CPU, cores'], rows)
  );
}
