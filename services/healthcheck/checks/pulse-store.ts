import { checksWithUnappliedHeartbeats, overdueChecks } from '#projections/hc-checks/index.js';
import { applySchema, type Database } from '#shared/db/index.js';
import { iso, json } from '#shared/db/index.js';

/**
 * Heartbeats and metric samples, written straight to their own tables rather than as events: a
 * check pushed every few seconds by many clients would otherwise grow its stream (and every fold of
 * it) without bound. The tables are bounded by age (`HEALTHCHECK_RETENTION`, pruned by the reaper);
 * only the state changes heartbeats cause are events. A row is committed before the push is answered.
 */
export const PULSE_SCHEMA = `
  CREATE TABLE IF NOT EXISTS hc_heartbeats (
    id bigserial PRIMARY KEY,
    check_id text NOT NULL,
    company_id integer NOT NULL,
    workspace_id integer NOT NULL,
    received_at timestamptz NOT NULL,
    status text NOT NULL,
    message text
  );
  CREATE INDEX IF NOT EXISTS hc_heartbeats_check ON hc_heartbeats (check_id, received_at DESC, id DESC);
  CREATE INDEX IF NOT EXISTS hc_heartbeats_age ON hc_heartbeats (received_at);
  CREATE TABLE IF NOT EXISTS hc_metric_samples (
    id bigserial PRIMARY KEY,
    check_id text NOT NULL,
    company_id integer NOT NULL,
    workspace_id integer NOT NULL,
    name text NOT NULL,
    value double precision NOT NULL,
    unit text,
    tags jsonb NOT NULL,
    at timestamptz NOT NULL,
    received_at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS hc_metric_samples_check ON hc_metric_samples (check_id, name, at DESC, id DESC);
  CREATE INDEX IF NOT EXISTS hc_metric_samples_age ON hc_metric_samples (received_at);
  CREATE TABLE IF NOT EXISTS hc_liveness (
    check_id text PRIMARY KEY,
    company_id integer NOT NULL,
    workspace_id integer NOT NULL,
    last_heartbeat_at timestamptz NOT NULL,
    last_status text NOT NULL,
    heartbeats bigint NOT NULL
  );`;

export interface PulseTarget {
  checkId: string;
  companyId: number;
  workspaceId: number;
}

export interface Scope {
  companyId: number;
  workspaceId: number;
}

export interface HeartbeatView {
  receivedAt: string;
  status: 'up' | 'fail';
  message: string | null;
}

export interface SampleInput {
  name: string;
  value: number;
  at: Date;
  unit: string | null;
  tags: Record<string, string>;
}

export interface SampleView {
  name: string;
  value: number;
  unit: string | null;
  tags: Record<string, string>;
  at: string;
  receivedAt: string;
}

export interface Liveness {
  lastHeartbeatAt: string;
  lastStatus: 'up' | 'fail';
  heartbeats: number;
}

/** Writes of what a check's pusher sends: heartbeats (with the liveness they move) and samples. */
function pulseWrites(db: Database) {
  return {
    /** Stores one heartbeat and moves the check's liveness, in one transaction. */
    async recordHeartbeat(target: PulseTarget, at: Date, status: 'up' | 'fail', message: string | null): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO hc_heartbeats (check_id, company_id, workspace_id, received_at, status, message) VALUES ($1,$2,$3,$4,$5,$6)`, [
          target.checkId,
          target.companyId,
          target.workspaceId,
          at.toISOString(),
          status,
          message,
        ]);
        await tx.query(
          `INSERT INTO hc_liveness (check_id, company_id, workspace_id, last_heartbeat_at, last_status, heartbeats) VALUES ($1,$2,$3,$4,$5,1)
           ON CONFLICT (check_id) DO UPDATE SET
             last_status = CASE WHEN excluded.last_heartbeat_at >= hc_liveness.last_heartbeat_at THEN excluded.last_status ELSE hc_liveness.last_status END,
             last_heartbeat_at = greatest(hc_liveness.last_heartbeat_at, excluded.last_heartbeat_at),
             heartbeats = hc_liveness.heartbeats + 1`,
          [target.checkId, target.companyId, target.workspaceId, at.toISOString(), status],
        );
      });
    },

    /** Stores a batch of samples in one statement. */
    async recordSamples(target: PulseTarget, receivedAt: Date, samples: readonly SampleInput[]): Promise<void> {
      if (samples.length === 0) return;
      const params: unknown[] = [target.checkId, target.companyId, target.workspaceId, receivedAt.toISOString()];
      const values = samples.map((s) => {
        params.push(s.name, s.value, s.unit, JSON.stringify(s.tags), s.at.toISOString());
        const n = params.length;
        return `($1,$2,$3,$${n - 4},$${n - 3},$${n - 2},$${n - 1}::jsonb,$${n},$4)`;
      });
      await db.query(
        `INSERT INTO hc_metric_samples (check_id, company_id, workspace_id, name, value, unit, tags, at, received_at) VALUES ${values.join(',')}`,
        params,
      );
    },
  };
}

/** A check's liveness, heartbeats and samples as its workspace reads them. */
function pulseReads(db: Database) {
  return {
    /** Liveness of these checks of the workspace, by check id. */
    async liveness(scope: Scope, checkIds: readonly string[]): Promise<Map<string, Liveness>> {
      const found = new Map<string, Liveness>();
      if (checkIds.length === 0) return found;
      const r = await db.query(
        `SELECT check_id, last_heartbeat_at, last_status, heartbeats FROM hc_liveness WHERE company_id = $1 AND workspace_id = $2 AND check_id = ANY($3::text[])`,
        [scope.companyId, scope.workspaceId, checkIds],
      );
      for (const row of r.rows) {
        found.set(String(row.check_id), {
          lastHeartbeatAt: iso(row.last_heartbeat_at),
          lastStatus: String(row.last_status) as 'up' | 'fail',
          heartbeats: Number(row.heartbeats),
        });
      }
      return found;
    },

    /** The newest heartbeats of one check of the workspace. */
    async recentHeartbeats(scope: Scope, checkId: string, limit: number): Promise<HeartbeatView[]> {
      const r = await db.query(
        `SELECT received_at, status, message FROM hc_heartbeats WHERE check_id = $1 AND company_id = $2 AND workspace_id = $3
          ORDER BY received_at DESC, id DESC LIMIT ${limit}`,
        [checkId, scope.companyId, scope.workspaceId],
      );
      return r.rows.map((row) => ({
        receivedAt: iso(row.received_at),
        status: String(row.status) as 'up' | 'fail',
        message: row.message === null ? null : String(row.message),
      }));
    },

    /** Samples of one check of the workspace, newest first, by name and from a time. */
    async samples(scope: Scope, checkId: string, filter: { name?: string | undefined; since?: Date | undefined; limit: number }): Promise<SampleView[]> {
      const where = ['check_id = $1', 'company_id = $2', 'workspace_id = $3'];
      const params: unknown[] = [checkId, scope.companyId, scope.workspaceId];
      if (filter.name) {
        params.push(filter.name);
        where.push(`name = $${params.length}`);
      }
      if (filter.since) {
        params.push(filter.since.toISOString());
        where.push(`at >= $${params.length}`);
      }
      const r = await db.query(
        `SELECT name, value, unit, tags, at, received_at FROM hc_metric_samples WHERE ${where.join(' AND ')} ORDER BY at DESC, id DESC LIMIT ${filter.limit}`,
        params,
      );
      return r.rows.map((row) => ({
        name: String(row.name),
        value: Number(row.value),
        unit: row.unit === null ? null : String(row.unit),
        tags: json<Record<string, string>>(row.tags),
        at: iso(row.at),
        receivedAt: iso(row.received_at),
      }));
    },
  };
}

/** What the reaper looks for across workspaces, and the pruning of old pulses. */
function reaperQueries(db: Database) {
  return {
    /**
     * Checks the read model shows as `up` whose last heartbeat is older than their interval plus
     * grace at `now`: candidates only; the decider has the last word.
     */
    overdueCandidates(now: Date, limit: number): Promise<(PulseTarget & { lastHeartbeatAt: string })[]> {
      return overdueChecks(db, now, limit);
    },

    /**
     * Checks (not paused) the read model shows as `new` or `down` whose newest heartbeat is an `up`
     * received after that status was recorded: a state change a heartbeat should have caused but did
     * not get appended (a conflict, a crash between the two writes, a reaper racing the heartbeat).
     */
    unappliedHeartbeats(limit: number): Promise<(PulseTarget & { lastHeartbeatAt: string })[]> {
      return checksWithUnappliedHeartbeats(db, limit);
    },

    /** The newest heartbeat of a check, whatever the workspace (the reaper's second look). */
    async lastHeartbeat(checkId: string): Promise<{ at: string; status: 'up' | 'fail' } | null> {
      const r = await db.query(`SELECT last_heartbeat_at, last_status FROM hc_liveness WHERE check_id = $1`, [checkId]);
      const row = r.rows[0];
      return row ? { at: iso(row.last_heartbeat_at), status: String(row.last_status) as 'up' | 'fail' } : null;
    },

    /** Drops heartbeats and samples received before `before`. */
    /** Deletes heartbeats and samples received before `before`; answers how many rows went. */
    async prune(before: Date): Promise<number> {
      const heartbeats = await db.query(`DELETE FROM hc_heartbeats WHERE received_at < $1`, [before.toISOString()]);
      const samples = await db.query(`DELETE FROM hc_metric_samples WHERE received_at < $1`, [before.toISOString()]);
      return heartbeats.rowCount + samples.rowCount;
    },
  };
}

/** Heartbeats, liveness and metric samples: module-owned tables, written straight (docs/modules/healthcheck.md). */
export function createPulseStore(db: Database) {
  return {
    async ensureSchema(): Promise<void> {
      await applySchema(db, 'hc_pulses', PULSE_SCHEMA);
    },
    ...pulseWrites(db),
    ...pulseReads(db),
    ...reaperQueries(db),
  };
}

export type PulseStore = ReturnType<typeof createPulseStore>;
