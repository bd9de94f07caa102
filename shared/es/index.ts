export * from './types.js';
export {
  createSqlEventStore,
  migrateSqlEventStore,
  MAX_EVENTS_PER_APPEND,
  type SqlEventStore,
  type SqlEventStoreOptions,
} from './postgres-event-store.js';
export { defineEvents, type EventContract, type EventOf, type EventSchemas, type EventsOf } from './event-contract.js';
export * from './aggregate.js';
export * from './credential-approval.js';
export * from './decider.js';
export * from './event-contract.js';
export * from './lifecycle-decider.js';
export * from './name-claim-decider.js';
export * from './read-model-waiter.js';
export * from './record-state.js';
export * from './revocable-key-decider.js';
export * from './state-cache.js';
export { ENCODED_SQL, rechainFrom } from './sql-chain.js';
