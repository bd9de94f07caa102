import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/*
 * Who used the machine's CPU during a measurement, from Linux's /proc: this process, the PostgreSQL
 * server's own processes and its backends serving the benchmark's database, the load generator, and
 * everything else (including backends of other databases on the same server). "Everything else" is what tells a
 * figure taken on a quiet machine from one taken while other work was running. Elsewhere than
 * Linux the figures are simply absent.
 */

/** Kernel clock ticks per second of /proc times; 100 on every mainstream Linux build. */
const TICKS_PER_SECOND = 100;

interface Snapshot {
  at: number;
  machineBusy: number;
  self: number;
  /** Per PostgreSQL process, since pools open and close backends during a measurement. */
  postgres: Map<string, number>;
  extra: number;
}

/** Average cores in use over a measurement, per consumer. */
export interface CpuShare {
  /** Cores the machine has. */
  cores: number;
  machine: number;
  self: number;
  postgres: number;
  loadGenerator: number;
  other: number;
}

function processTicks(pid: string): { comm: string; ticks: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // Fields 14 and 15 of stat(5), utime and stime; `fields` starts at field 3.
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** A backend's title names its database and client: `postgres: 15/main: user db 127.0.0.1(5432) idle`. */
const CLIENT_BACKEND = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]|\[[0-9a-f:]+\]\(\d+\)/;

function countsAsPostgres(pid: string, database: string | undefined): boolean {
  const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  if (!CLIENT_BACKEND.test(title)) return true;
  return database !== undefined && title.includes(` ${database} `);
}

/** CPU seconds (user and system, every thread) one process has used so far, or null when it is gone or off Linux. */
export function processCpuSeconds(pid: number): number | null {
  const p = processTicks(String(pid));
  return p ? p.ticks / TICKS_PER_SECOND : null;
}

function snapshot(extraPids: readonly number[], database: string | undefined): Snapshot | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const machineBusy = cpu[0]! + cpu[1]! + cpu[2]! + cpu[5]! + cpu[6]! + cpu[7]!;
    const postgres = new Map<string, number>();
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const p = processTicks(pid);
      try {
        if (p && (p.comm === 'postgres' || p.comm === 'postmaster') && countsAsPostgres(pid, database)) postgres.set(pid, p.ticks);
      } catch {
        // The process ended between the two reads.
      }
    }
    const extra = extraPids.reduce((sum, pid) => sum + (processTicks(String(pid))?.ticks ?? 0), 0);
    return { at: performance.now(), machineBusy, self: processTicks(String(process.pid))?.ticks ?? 0, postgres, extra };
  } catch {
    return null;
  }
}

/**
 * Starts measuring; `stop()` returns the average cores each consumer used since, or null off Linux.
 * `database` names the PostgreSQL database whose backends count as the benchmark's.
 */
export function measureCpu(options: { extraPids?: readonly number[]; database?: string } = {}): { stop(): CpuShare | null } {
  const extraPids = options.extraPids ?? [];
  const start = snapshot(extraPids, options.database);
  return {
    stop() {
      const end = snapshot(extraPids, options.database);
      if (!start || !end) return null;
      const seconds = (end.at - start.at) / 1000;
      const cores = (ticks: number) => Math.max(0, ticks / TICKS_PER_SECOND / seconds);
      const machine = cores(end.machineBusy - start.machineBusy);
      const self = cores(end.self - start.self);
      // A backend that started meanwhile counts from zero; one that ended took its last ticks with it.
      let postgresTicks = 0;
      for (const [pid, ticks] of end.postgres) postgresTicks += ticks - (start.postgres.get(pid) ?? 0);
      const postgres = cores(postgresTicks);
      const loadGenerator = cores(end.extra - start.extra);
      return {
        cores: os.cpus().length,
        machine,
        self,
        postgres,
        loadGenerator,
        other: Math.max(0, machine - self - postgres - loadGenerator),
      };
    },
  };
}

/** `bench 0.9 · pg 0.6 · other 0.4` (cores), the busiest consumers of a measurement. */
export function formatCpu(share: CpuShare | null): string {
  if (!share) return 'n/a';
  const parts = [`bench ${share.self.toFixed(1)}`];
  if (share.loadGenerator > 0) parts.push(`load ${share.loadGenerator.toFixed(1)}`);
  parts.push(`pg ${share.postgres.toFixed(1)}`, `other ${share.other.toFixed(1)}`);
  return parts.join(' · ');
}
