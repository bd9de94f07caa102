/** Waits until read models have caught up with a log position (read-your-writes). */
export interface ReadModelWaiter {
  waitFor(position: bigint, options?: { names?: readonly string[]; timeoutMs?: number }): Promise<void>;
  /** How far a projection run by this process has got; undefined when it runs elsewhere. */
  positionOf?(name: string): bigint | undefined;
  /**
   * A number that changes whenever any projection of this process moves — with `names`, any of those —;
   * undefined when they run elsewhere. Caches of read-model answers are dropped when it changes.
   */
  version?(names?: readonly string[]): bigint | undefined;
  /**
   * Tells the projections this process runs that their stored checkpoints were moved here (an erasure
   * set some back): they adopt them at once rather than at their next poll. Absent where they run elsewhere.
   */
  checkpointsMoved?(): void;
}

/**
 * What a write whose read model stays behind past the wait is answered (503 `SERVICE_UNAVAILABLE`): it
 * was saved, and sent again without the same `Idempotency-Key` it would be saved twice.
 */
export const READ_MODEL_BEHIND = 'The write was saved, but the read models have not caught up yet; it will show shortly. Do not send it again unless with the same Idempotency-Key';
