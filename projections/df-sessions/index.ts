export { dfSessionsProjection } from './projection.js';
export * from './queries.js';
