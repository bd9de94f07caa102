/** Waits until read models have caught up with a log position (read-your-writes). */
export interface ReadModelWaiter {
  waitFor(position: bigint, options?: { names?: readonly string[]; timeoutMs?: number }): Promise<void>;
  /** How far a projection run by this process has got; undefined when it runs elsewhere. */
  positionOf?(name: string): bigint | undefined;
  /**
   * A number that changes whenever any projection of this process moves; undefined when they run
   * elsewhere. Caches of read-model answers are dropped when it changes.
   */
  version?(): bigint | undefined;
}
