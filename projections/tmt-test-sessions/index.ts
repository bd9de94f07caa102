export { tmtTestSessionsProjection } from './projection.js';
export * from './queries.js';
