import { randomUUID } from 'node:crypto';
import { applySchema, iso, type Database, type Sql } from '#shared/db/index.js';
import { setIntervalOutsideTrace, tracingState } from '#shared/tracing/index.js';
import type { Config } from '#shared/config.js';

/** How a process serves metrics and exports traces: what the observability page shows of each one. */
export interface ProcessObservability {
  metrics: { served: boolean; port: number | null; tokenProtected: boolean };
  tracing: { enabled: boolean; sampler: string | null; ratio: number | null; protocol: 'http/protobuf' | 'http/json' | null; serviceName: string | null };
}

/** One process of the installation as it last reported itself. */
export interface ProcessEntry extends ProcessObservability {
  instanceId: string;
  /** The services it runs (`SERVICES`), sorted; every one of them for a process that runs all. */
  services: string[];
  startedAt: string;
  seenAt: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS platform_processes (
    instance_id text PRIMARY KEY,
    services jsonb NOT NULL,
    observability jsonb NOT NULL,
    started_at timestamptz NOT NULL,
    seen_at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS platform_processes_seen ON platform_processes (seen_at);`;

/** How this process serves metrics (`METRICS_PORT`, `METRICS_TOKEN`) and exports traces (the `OTEL_*` variables). */
export function observabilityOf(config: Pick<Config, 'METRICS_PORT' | 'METRICS_TOKEN'>): ProcessObservability {
  const tracing = tracingState();
  return {
    metrics: { served: config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined, port: config.METRICS_PORT ?? null, tokenProtected: config.METRICS_TOKEN !== undefined },
    tracing: tracing
      ? { enabled: true, sampler: tracing.sampler, ratio: tracing.ratio, protocol: tracing.protocol, serviceName: tracing.serviceName }
      : { enabled: false, sampler: null, ratio: null, protocol: null, serviceName: null },
  };
}

/** How often a process says it is still there. */
export const PROCESS_RENEW_MS = 15_000;
/** A process not heard of for this long is gone (it died without saying so): three renewals missed. */
export const PROCESS_STALE_MS = 3 * PROCESS_RENEW_MS;

/**
 * Each process of an installation (the gateway, each module, the projections runner; or one process
 * running them all) keeps a row in the shared database saying which services it runs and how it serves
 * metrics and exports traces, renewed every 15 s and removed when it stops. The observability page lists
 * the rows heard of within the last 45 s, so that an operator sees every process of a split deployment,
 * not only the one answering. Nothing secret is kept: no token, no endpoint, no host name or address.
 * Times are the database's own (`now()`), so processes on hosts with clocks apart agree.
 */
export class ProcessRegistry {
  readonly instanceId = randomUUID();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database,
    private readonly entry: { services: readonly string[]; observability: ProcessObservability },
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Records this process and renews it until `stop`. */
  async start(): Promise<void> {
    await applySchema(this.db, 'platform_processes', SCHEMA);
    await this.renew();
    this.timer = setIntervalOutsideTrace(() => void this.renew().catch(this.onError), PROCESS_RENEW_MS);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    await this.db.query(
      `INSERT INTO platform_processes (instance_id, services, observability, started_at, seen_at) VALUES ($1, $2::jsonb, $3::jsonb, now(), now())
       ON CONFLICT (instance_id) DO UPDATE SET seen_at = now()`,
      [this.instanceId, JSON.stringify([...this.entry.services].sort()), JSON.stringify(this.entry.observability)],
    );
  }

  /** Stops renewing and removes this process's row; rows of processes gone for long are dropped too. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.db.query(`DELETE FROM platform_processes WHERE instance_id = $1 OR seen_at < now() - $2 * interval '1 millisecond'`, [this.instanceId, PROCESS_STALE_MS * 4]);
  }
}

/** The processes heard of within the last 45 s (by the database's clock), the longest running first. */
export async function liveProcesses(db: Sql): Promise<ProcessEntry[]> {
  const { rows } = await db.query(
    `SELECT instance_id, services, observability, started_at, seen_at FROM platform_processes
      WHERE seen_at >= now() - $1 * interval '1 millisecond' ORDER BY started_at, instance_id`,
    [PROCESS_STALE_MS],
  );
  return rows.map((r) => {
    const observability = (typeof r.observability === 'string' ? JSON.parse(r.observability) : r.observability) as ProcessObservability;
    return {
      instanceId: String(r.instance_id),
      services: (typeof r.services === 'string' ? JSON.parse(r.services) : r.services) as string[],
      metrics: observability.metrics,
      tracing: observability.tracing,
      startedAt: iso(r.started_at),
      seenAt: iso(r.seen_at),
    };
  });
}
