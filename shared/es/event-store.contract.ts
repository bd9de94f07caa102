import { afterAll, beforeAll, describe } from 'vitest';
import { appendContract } from './event-store-contract/appends.contract.js';
import { readContract } from './event-store-contract/reads.contract.js';
import { revisionContract } from './event-store-contract/revisions.contract.js';
import type { EventStoreContractContext, EventStoreContractSubject } from './event-store-contract/subject.js';
import { subscriptionContract } from './event-store-contract/subscriptions.contract.js';

export type { EventStoreContractSubject } from './event-store-contract/subject.js';

/*
 * The store may be shared with other tests and (for KurrentDB) other runs, so every test writes to its
 * own random categories and types, and looks at the log only through those or after a position it took
 * before it started.
 *
 * One topic a file (event-store-contract/): appends and reads of a stream, expected revisions, reading
 * the log, subscriptions.
 */

/** Runs the event store contract against the store `factory` opens (once for the whole suite). */
export function describeEventStoreContract(name: string, factory: () => Promise<EventStoreContractSubject>): void {
  describe(name, () => {
    let subject: EventStoreContractSubject | undefined;
    const context: EventStoreContractContext = {
      get subject() {
        if (!subject) throw new Error('The contract subject is opened before the first test');
        return subject;
      },
      get store() {
        return this.subject.store;
      },
    };

    beforeAll(async () => {
      subject = await factory();
    });

    afterAll(async () => {
      await subject?.dispose();
    });

    appendContract(context);
    revisionContract(context);
    readContract(context);
    subscriptionContract(context);
  });
}
