export { tmtMockServicesProjection } from './projection.js';
export * from './queries.js';
