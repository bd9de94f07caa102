import type { EventStore } from '../types.js';

/** What a contract run needs from an adapter. */
export interface EventStoreContractSubject {
  store: EventStore;
  /**
   * Appends run in overlapping database transactions (a server behind a pool). The concurrency test then
   * also proves that commits really finished out of position order, i.e. that it tested the hard case.
   */
  concurrentTransactions?: boolean;
  dispose(): Promise<void>;
}

/*
 * The store may be shared with other tests and (for KurrentDB) other runs, so every test writes to its
 * own random categories and types, and looks at the log only through those or after a position it took
 * before it started.
 */

/** What the topics of a contract run share: the subject its suite opened once (set before the first test). */
export interface EventStoreContractContext {
  readonly subject: EventStoreContractSubject;
  /** The subject's store. */
  readonly store: EventStore;
}
