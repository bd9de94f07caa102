export { dfTestRunsProjection } from './projection.js';
export * from './queries.js';
