/** The event store on KurrentDB (EVENTSTORE_URL): its own package, so only a process that uses it loads its client. */
export { createKurrentEventStore } from './kurrent-event-store.js';
