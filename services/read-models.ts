import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';
import type { ReadModelWaiter } from './platform.js';

/**
 * Read-your-writes for a process that does not run the projections itself: polls their stored
 * checkpoints until they pass the position, or gives up with 503.
 */
export function checkpointWaiter(db: Sql, pollMs = 20): ReadModelWaiter {
  return {
    async waitFor(position, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 5000);
      const names = options.names ?? [];
      for (;;) {
        const r = await db.query<{ behind: unknown }>(
          `SELECT count(*) AS behind FROM projection_checkpoints
            WHERE position < $1 AND (cardinality($2::text[]) = 0 OR name = ANY($2::text[]))`,
          [position.toString(), names],
        );
        if (Number(r.rows[0]?.behind ?? 0) === 0) return;
        if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', 'Read model is behind; try again shortly');
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
}
