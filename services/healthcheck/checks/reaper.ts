import type { Logger } from 'pino';
import type { Platform } from '../../platform.js';
import type { PulseStore } from './pulse-store.js';
import type { CheckService } from './service.js';
import { commandContext } from '#shared/es/index.js';
import { inTick, outsideTrace, UNTRACED, type Tick } from '#shared/tracing/index.js';

const BATCH = 200;

/**
 * Turns overdue checks `down`, re-applies heartbeats whose state change was not recorded, and prunes
 * old heartbeats and samples. Every replica may run one: candidates come from the read model, but
 * the decider decides against the stream with the expected revision, so of two replicas marking the
 * same check down exactly one append wins and the other's retry finds nothing left to do.
 */
export function createReaper(platform: Platform, deps: { checks: CheckService; pulses: PulseStore; logger: Logger }) {
  const { checks, pulses, logger } = deps;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  let lastPrune = 0;

  /**
   * One pass; run by the timer, a pass that does something is a span (`healthcheck.reap`, with the checks
   * marked down, the heartbeats applied and the rows pruned), one that finds nothing makes none.
   */
  async function reapOnce(tick: Tick = UNTRACED): Promise<void> {
    const now = platform.now();
    // The pass's one time: its commands and their events all carry it.
    const at = { now: () => now };
    for (const c of await pulses.overdueCandidates(now, BATCH)) {
      await tick.work(async () => {
        const context = commandContext(at, { companyId: c.companyId, workspaceId: c.workspaceId });
        const result = await checks.execute(c.checkId, { type: 'MarkOverdue', checkId: c.checkId, lastHeartbeatAt: c.lastHeartbeatAt, now: now.toISOString() }, context, {
          wait: false,
        });
        if (result.events.length === 0) return;
        tick.count('checks.overdue');
        // A heartbeat that landed between the candidate query and the append must not leave it down.
        const last = await pulses.lastHeartbeat(c.checkId);
        if (last && last.status === 'up' && last.at > c.lastHeartbeatAt) {
          await checks.execute(c.checkId, { type: 'RecordHeartbeat', checkId: c.checkId, at: last.at, status: 'up', message: null }, context, { wait: false });
        }
      });
    }
    for (const c of await pulses.unappliedHeartbeats(BATCH)) {
      tick.count('heartbeats.applied');
      await tick.work(() =>
        checks.execute(
          c.checkId,
          { type: 'RecordHeartbeat', checkId: c.checkId, at: c.lastHeartbeatAt, status: 'up', message: null },
          commandContext(at, { companyId: c.companyId, workspaceId: c.workspaceId }),
          { wait: false },
        ),
      );
    }
    if (now.getTime() - lastPrune >= 60_000) {
      lastPrune = now.getTime();
      tick.count('rows.pruned', await pulses.prune(new Date(now.getTime() - platform.config.HEALTHCHECK_RETENTION)));
    }
  }

  const schedule = () => {
    if (stopped) return;
    // Outside any trace: a reaper started while a request was traced would otherwise tick inside it for ever.
    timer = outsideTrace(() => setTimeout(() => {
      running = inTick('healthcheck.reap', reapOnce)
        .catch((err: unknown) => logger.warn({ err }, 'health-check reaper pass failed'))
        .finally(() => {
          running = null;
          schedule();
        });
    }, platform.config.HEALTHCHECK_REAPER_INTERVAL));
    timer.unref();
  };

  return {
    reapOnce: () => reapOnce(),
    start(): void {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
