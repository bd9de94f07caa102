import { FAILING_END_REASONS } from '#events/df/health.js';
import type { ClosedSessionVerdict } from '#projections/df-sessions/index.js';

/** What one closed session says of its device: it failed, it passed, or nothing (a session nobody judged that ended normally). */
export type SessionVerdict = { verdict: 'failed'; why: string } | { verdict: 'passed' } | { verdict: 'none' };

/**
 * The verdict of one closed session for its device's health (docs/modules/device-health.md, "Failed
 * sessions in a row"): the runner's outcome (`PUT /df/api/sessions/{id}/outcome`) when one is set — it
 * is the explicit word and wins over how the session ended; else a session that could not be prepared,
 * or that ended for a reason of the device (`FAILING_END_REASONS`), failed; every other end says nothing.
 */
export function verdictOf(s: Pick<ClosedSessionVerdict, 'status' | 'endReason' | 'outcome' | 'outcomeReason'>): SessionVerdict {
  if (s.outcome === 'passed') return { verdict: 'passed' };
  if (s.outcome === 'failed') return { verdict: 'failed', why: `outcome failed${s.outcomeReason ? `: ${s.outcomeReason}` : ''}` };
  if (s.status === 'failed') return { verdict: 'failed', why: `could not be prepared${s.endReason ? `: ${s.endReason}` : ''}` };
  if (s.endReason && (FAILING_END_REASONS as readonly string[]).includes(s.endReason)) return { verdict: 'failed', why: `ended ${s.endReason}` };
  return { verdict: 'none' };
}

/**
 * How many of a device's sessions, newest first, failed in a row: counted until the first that passed;
 * a session without a verdict neither counts nor breaks the run. `last`: why the newest failed one failed.
 */
export function failedInARow(newestFirst: readonly Pick<ClosedSessionVerdict, 'status' | 'endReason' | 'outcome' | 'outcomeReason'>[]): { count: number; last: string | null } {
  let count = 0;
  let last: string | null = null;
  for (const session of newestFirst) {
    const v = verdictOf(session);
    if (v.verdict === 'passed') break;
    if (v.verdict === 'none') continue;
    count += 1;
    last ??= v.why;
  }
  return { count, last };
}

/** The reason a quarantine for failed sessions gives (`3 sessions in a row failed; the last: outcome failed: …`). */
export const failedSessionsReason = (count: number, last: string | null) => `${count} sessions in a row failed${last ? `; the last: ${last}` : ''}`.slice(0, 500);
