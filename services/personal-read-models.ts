import { AppError } from '#shared/errors.js';
import { personalDataOf } from '#shared/pii/index.js';
import { resetProjection } from '#projections/checkpoints.js';
import type { Projection } from '#projections/types.js';
import type { PersonalReadModels } from './organization/index.js';
import type { Platform } from './platform.js';
import { checkpointWaiter } from './read-models.js';

/** How long an erasure waits for the rebuilt read models before answering that they are still rebuilding. */
const WAIT_MS = 60_000;

/**
 * The read models that keep personal data — those handling an event type with personal fields, and
 * those that keep a client's address from events' metadata — and their rebuild after an erasure: each is
 * emptied and its checkpoint set back (the runners notice and replay it, as after
 * `npm run projections:rebuild`), then the stored checkpoints are awaited up to the log's head.
 */
export function personalReadModels(platform: Platform, projections: readonly Projection[], waitMs = WAIT_MS): PersonalReadModels {
  const data = personalDataOf(platform.store);
  const affected = projections.filter((p) => p.keepsPersonalData === true || p.eventTypes.some((t) => data?.holdsPersonalData(t) === true));
  return {
    async rebuild() {
      const head = await platform.store.headPosition();
      for (const projection of affected) await resetProjection(platform.db, projection);
      try {
        await checkpointWaiter(platform.db, { timeoutMs: waitMs }).waitFor(head, { names: affected.map((p) => p.name) });
        return 'done';
      } catch (err) {
        if (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE') return 'rebuilding';
        throw err;
      }
    },
  };
}

