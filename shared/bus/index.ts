export type { BusMessage, BusSubscription, DurableMessage, MessageBus } from './types.js';
export { BusTimeoutError, BusUnavailableError, NoRespondersError } from './types.js';
export type { DurableStreams } from './subjects.js';
export { createMemoryBus, type MemoryBusOptions } from './memory-bus.js';
export { connectNatsBus, type NatsBusOptions } from './nats-bus.js';
export * from './memory-bus.js';
export * from './types.js';
