export { arRunsProjection } from './projection.js';
export * from './queries.js';
