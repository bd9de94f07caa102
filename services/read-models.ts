import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import { READ_MODEL_BEHIND } from '#shared/es/index.js';
import type { ReadModelWaiter } from './platform.js';

/** How long a write waits for its read model where nothing is failing over. */
const USUAL_WAIT_MS = 5_000;

/**
 * How long a write waits for its read model in a process that does not run the projections: the usual
 * wait, plus the time a surviving runner takes over the leases of one that died (within the lease time
 * and a third: docs/operations.md, "Scaling"). A write committed while the leases pass over is then
 * answered, later, instead of 503 — a client that retried it without an idempotency key would make a
 * duplicate. Only a runner that stays away longer (none survives) still ends the wait with 503.
 */
export function settleTimeoutMs(leaseTtlMs: number): number {
  return USUAL_WAIT_MS + Math.ceil((leaseTtlMs * 4) / 3);
}

/**
 * Read-your-writes for a process that does not run the projections itself: polls their stored
 * checkpoints until they pass the position, or gives up with 503 after `timeoutMs` (a call's own
 * `timeoutMs` wins).
 */
export function checkpointWaiter(db: Sql, { timeoutMs = USUAL_WAIT_MS, pollMs = 20 }: { timeoutMs?: number; pollMs?: number } = {}): ReadModelWaiter {
  return {
    async waitFor(position, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? timeoutMs);
      const names = options.names ?? [];
      for (;;) {
        const r = await db.query<{ behind: unknown }>(
          `SELECT count(*) AS behind FROM projection_checkpoints
            WHERE position < $1 AND (cardinality($2::text[]) = 0 OR name = ANY($2::text[]))`,
          [position.toString(), names],
        );
        if (Number(r.rows[0]?.behind ?? 0) === 0) return;
        if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', READ_MODEL_BEHIND);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
}
