import type { Logger } from 'pino';
import { busyDevices } from '#projections/df-devices/index.js';
import { sessionsByIds, type SessionRecord } from '#projections/df-sessions/index.js';
import type { Database } from '#shared/db/index.js';
import type { HolderState, SessionHolders } from '../core/holders.js';
import { PeriodicJob } from '../core/periodic.js';
import { UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { SessionPort } from '../core/session-port.js';

/** Who the watchdog's ends are recorded as (the session's end event and the audit name it). */
export const WATCHDOG_ACTOR = 'watchdog';

export interface BusyWatchdogDeps {
  db: Database;
  logger: Logger;
  now: () => Date;
  holders: SessionHolders;
  sessions: Pick<SessionPort, 'end' | 'recordActivity'>;
  /** How often it checks (`DF_WATCHDOG_PERIOD`); a holder silent for two periods is gone. */
  periodMs: number;
}

/** Why a busy device is not explained, or null when it is. */
export type Unexplained = { why: 'closed-session' } | { why: 'no-live-holder'; holder: HolderState['claimedBy'] } | null;

/**
 * The rule, pure: a device held by a session the read model shows closed for longer than the grace was
 * never given back; an active session a connection claimed (a viewer, a WebDriver client) with no such
 * connection present now and no command for the grace has no live holder. A session being prepared, one
 * the read model does not show yet, and one no connection ever claimed (a REST client's, left to the
 * idle time-out) are explained.
 */
export function unexplained(session: SessionRecord | null, holder: HolderState, now: number, graceMs: number): Unexplained {
  if (!session) return null;
  if (session.status === 'ended' || session.status === 'failed') {
    return Date.parse(session.endedAt ?? session.lastActivityAt) < now - graceMs ? { why: 'closed-session' } : null;
  }
  if (session.status !== 'active' || holder.claimedBy === null || holder.present) return null;
  return Date.parse(session.lastActivityAt) < now - graceMs ? { why: 'no-live-holder', holder: holder.claimedBy } : null;
}

/**
 * Never busy for nothing (docs/modules/device-health.md): every period, on every replica, this replica's
 * holders are written as present, then every busy device is checked to be explained by an open session
 * with a live holder; a session without one ends `abandoned` (its device released, the end recorded
 * and audited as the watchdog's), and a device still held by a closed session is given back.
 *
 * A period's check starts the ends it finds due and does not wait for them: an end takes as long as its
 * device's release (its log collected, its reset), and a check that waited would hold back the next
 * one, and so every client death in the meantime. A session whose end is under way is not ended again.
 */
export class BusyWatchdog {
  private readonly job = new PeriodicJob(
    'busy-watchdog',
    (tick) => this.sweep(tick).then(() => undefined),
    (err) => this.deps.logger.warn({ err }, 'the busy-device watchdog failed'),
  );
  /** The ends under way, by session: each answers whether it ended its session. */
  private readonly ending = new Map<string, Promise<boolean>>();

  constructor(private readonly deps: BusyWatchdogDeps) {}

  start(): void {
    this.job.start(this.deps.periodMs);
  }

  /** No check after this call; resolves once the check and the ends under way have finished. */
  async stop(): Promise<void> {
    await this.job.stop();
    await Promise.all(this.ending.values());
  }

  /** One check now; answers, once their ends are done, the sessions it ended or whose device it gave back. */
  async check(): Promise<string[]> {
    const started = await this.sweep();
    const ended = await Promise.all(started.map(({ done }) => done));
    return started.filter((_, i) => ended[i]).map(({ sessionId }) => sessionId);
  }

  /** Finds the busy devices not explained and starts ending their sessions (each on its own, side by side); does not wait for the ends. */
  private async sweep(tick: Tick = UNTRACED): Promise<{ sessionId: string; done: Promise<boolean> }[]> {
    await this.deps.holders.publish();
    const busy = await busyDevices(this.deps.db);
    const sessions = new Map((await sessionsByIds(this.deps.db, busy.map((b) => b.sessionId))).map((s) => [s.id, s]));
    const holders = await this.deps.holders.of(busy.map((b) => b.sessionId));
    const now = this.deps.now().getTime();
    const due = busy.flatMap(({ deviceId, sessionId }, i) => {
      if (this.ending.has(sessionId)) return [];
      const session = sessions.get(sessionId) ?? null;
      const verdict = unexplained(session, holders[i]!, now, 2 * this.deps.periodMs);
      return verdict && session ? [{ deviceId, session, verdict }] : [];
    });
    tick.count('sessions.abandoned', due.length);
    return due.map(({ deviceId, session, verdict }) => {
      // In the tick's span, which may end first: the ends are not waited for.
      const done = tick.work(() => this.abandon(deviceId, session, verdict)).finally(() => this.ending.delete(session.id));
      this.ending.set(session.id, done);
      return { sessionId: session.id, done };
    });
  }

  private async abandon(deviceId: string, session: SessionRecord, verdict: NonNullable<Unexplained>): Promise<boolean> {
    this.deps.logger.info({ sessionId: session.id, deviceId, ...verdict }, 'a busy device has no live holder: ending its session as abandoned');
    if (verdict.why === 'no-live-holder') {
      const detail = { event: 'abandoned', holder: verdict.holder, lastActivityAt: session.lastActivityAt };
      await this.deps.sessions.recordActivity(session, { actor: WATCHDOG_ACTOR, companyId: session.companyId, workspaceId: session.workspaceId }, 'lifecycle', detail).catch(() => undefined);
    }
    try {
      await this.deps.sessions.end(session, 'abandoned', WATCHDOG_ACTOR);
      return true;
    } catch (err) {
      this.deps.logger.warn({ err, sessionId: session.id }, 'ending an abandoned session failed');
      return false;
    }
  }
}
