import type { Logger } from 'pino';
import { sessionById } from '#projections/df-sessions/index.js';
import type { Database } from '#shared/db/index.js';
import { PeriodicJob } from '../core/periodic.js';
import type { SessionPort } from '../core/session-port.js';
import type { FleetService } from './service.js';

/** A slot whose session never appeared in the read model for this long was left by a crashed create. */
const ORPHAN_SLOT_MS = 5 * 60_000;

export interface FleetSweeperDeps {
  db: Database;
  logger: Logger;
  now: () => Date;
  /** The plan limits whose slot tables the sweep frees. */
  fleet: Pick<FleetService, 'ready'>;
  sessions: Pick<SessionPort, 'end'>;
  /** The longest a session lasts in a workspace that set none (`DF_SESSION_MAX_DURATION`). */
  maxSessionSeconds: number;
}

/**
 * The sweeper that ends sessions past their workspace's idle time-out or maximum length. It ends
 * sessions, so the module builds it after the sessions service (the plan limits, which sessions ask,
 * are built before).
 */
export class FleetSweeper {
  private readonly sweeper = new PeriodicJob(
    () => this.sweep(),
    (err) => this.deps.logger.warn({ err }, 'session limit sweep failed'),
  );

  constructor(private readonly deps: FleetSweeperDeps) {}

  start(everyMs: number): void {
    this.sweeper.start(everyMs);
  }

  stop(): Promise<void> {
    return this.sweeper.stop();
  }

  /**
   * Ends active sessions past their workspace's maximum length (`max-duration`) or idle time-out
   * (`idle-timeout`), and frees slots whose sessions are closed or never appeared (a crash mid-create).
   */
  async sweep(): Promise<void> {
    await this.deps.fleet.ready();
    const now = this.deps.now();
    const due = await this.deps.db.query<{ session_id: string; reason: 'max-duration' | 'idle-timeout' }>(
      `SELECT s.session_id, CASE WHEN s.started_at <= $1::timestamptz - make_interval(secs => coalesce(d.max_session_seconds, $2)) THEN 'max-duration' ELSE 'idle-timeout' END AS reason
       FROM df_sessions s LEFT JOIN df_session_defaults d ON d.workspace_id = s.workspace_id
       WHERE s.status = 'active' AND NOT s.deleted
         AND (s.started_at <= $1::timestamptz - make_interval(secs => coalesce(d.max_session_seconds, $2))
              OR (d.workspace_id IS NOT NULL AND s.last_activity_at <= $1::timestamptz - make_interval(secs => d.idle_timeout_seconds)))`,
      [now.toISOString(), this.deps.maxSessionSeconds],
    );
    for (const row of due.rows) {
      const session = await sessionById(this.deps.db, row.session_id);
      if (!session || session.status !== 'active') continue;
      this.deps.logger.info({ sessionId: row.session_id, reason: row.reason }, 'ending a session past its workspace limit');
      await this.deps.sessions.end(session, row.reason, 'system').catch((err: unknown) => this.deps.logger.warn({ err, sessionId: row.session_id }, 'ending a session failed'));
    }
    await this.deps.db.query(
      `DELETE FROM df_quota_session_slots q WHERE EXISTS (SELECT 1 FROM df_sessions s WHERE s.session_id = q.session_id AND (s.status IN ('ended', 'failed') OR s.deleted))
          OR (q.taken_at < $1::timestamptz AND NOT EXISTS (SELECT 1 FROM df_sessions s WHERE s.session_id = q.session_id))`,
      [new Date(now.getTime() - ORPHAN_SLOT_MS).toISOString()],
    );
  }
}
