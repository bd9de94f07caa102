import type { Database } from '#shared/db/index.js';
import type { EventStore } from '#shared/es/index.js';
import { batchTarget, lockCheckpoint, moveCheckpoint, resetProjection } from './checkpoints.js';
import { applyAll, type Projection } from './types.js';

/**
 * Replays a projection from zero in this process (the rebuild command). When a running service picks
 * the reset up first, this stops and says so: the service finishes the replay.
 */
export async function rebuildProjection(
  store: EventStore,
  db: Database,
  projection: Projection,
  options: { batchSize?: number; onProgress?: (applied: number, position: bigint) => void } = {},
): Promise<{ applied: number; handedOver: boolean }> {
  await resetProjection(db, projection);
  const batchSize = options.batchSize ?? 5000;
  let position = 0n;
  let applied = 0;
  const read = async (after: bigint) => {
    const head = await store.headPosition();
    const events = await store.readAll({ after, maxCount: batchSize, filter: { eventTypes: projection.eventTypes } });
    return { head, events };
  };
  let next = read(position);
  for (;;) {
    const { head, events } = await next;
    const { complete, last, target } = batchTarget(events, batchSize, head, position);
    // The next page is read while this one is applied: a server's pool runs both at once (PGlite runs
    // them in turn). A read that fails is reported by the await above on the next turn.
    if (!complete) {
      next = read(last);
      next.catch(() => undefined);
    }
    const handedOver = await db.transaction(async (tx) => {
      if ((await lockCheckpoint(tx, projection.name)) !== position) return true;
      await applyAll(projection, tx, events);
      await moveCheckpoint(tx, projection.name, target);
      return false;
    });
    // A running service took the reset over and replays it itself.
    if (handedOver) return { applied, handedOver: true };
    applied += events.length;
    position = target;
    options.onProgress?.(applied, position);
    if (complete) return { applied, handedOver: false };
  }
}
