import { AppError } from '#shared/errors.js';
import { personalDataOf } from '#shared/pii/index.js';
import { lockCheckpoint, resetProjection } from '#projections/checkpoints.js';
import type { Projection } from '#projections/types.js';
import type { PersonalReadModels } from './organization/index.js';
import type { Platform } from './platform.js';
import { checkpointWaiter } from './read-models.js';

/** How long an erasure waits for the read models before answering that they are still rebuilding. */
const WAIT_MS = 60_000;

/**
 * The read models that keep personal data — those handling an event type with personal fields, and
 * those that keep a client's address from events' metadata — and what an erasure does to them, once the
 * person's key is destroyed:
 *
 * - one that can rewrite a person's rows in place (`erasePerson`) does so, after it has applied every
 *   event read before the key went (those were read with it): it keeps answering throughout;
 * - every other one is emptied and its checkpoint set back (the runners notice and replay it, as after
 *   `npm run projections:rebuild`), and its stored checkpoint is awaited up to the log's head.
 */
export function personalReadModels(platform: Platform, projections: readonly Projection[], waitMs = WAIT_MS): PersonalReadModels {
  const data = personalDataOf(platform.store);
  const affected = projections.filter((p) => p.keepsPersonalData === true || p.eventTypes.some((t) => data?.holdsPersonalData(t) === true));
  const rewritten = affected.filter((p) => p.erasePerson);
  const rebuilt = affected.filter((p) => !p.erasePerson);
  const waiter = checkpointWaiter(platform.db, { timeoutMs: waitMs });
  const caughtUp = async (head: bigint, names: string[]): Promise<boolean> => {
    try {
      await waiter.waitFor(head, { names });
      return true;
    } catch (err) {
      if (err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE') return false;
      throw err;
    }
  };
  return {
    async rebuild(userId) {
      const head = await platform.store.headPosition();
      for (const projection of rebuilt) await resetProjection(platform.db, projection);
      platform.readModels.checkpointsMoved?.();
      // Every event a runner read before the key went is at or below `head`: applied once the checkpoint passes it.
      let done = await caughtUp(head, rewritten.map((p) => p.name));
      if (done) {
        for (const projection of rewritten) {
          await platform.db.transaction(async (tx) => {
            await lockCheckpoint(tx, projection.name);
            await projection.erasePerson!(tx, userId);
          });
        }
      }
      done = (await caughtUp(head, rebuilt.map((p) => p.name))) && done;
      return { state: done ? 'done' : 'rebuilding', rewritten: rewritten.map((p) => p.name), rebuilt: rebuilt.map((p) => p.name) };
    },
  };
}
