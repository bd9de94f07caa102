export * from './types.js';
export {
  createSqlEventStore,
  migrateSqlEventStore,
  MAX_EVENTS_PER_APPEND,
  type SqlEventStore,
  type SqlEventStoreOptions,
} from './postgres-event-store.js';
export { createKurrentEventStore } from './kurrent-event-store.js';
export { defineEvents, type EventContract, type EventOf, type EventSchemas, type EventsOf } from './event-contract.js';
