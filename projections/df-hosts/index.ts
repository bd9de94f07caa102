export { dfHostsProjection } from './projection.js';
export * from './queries.js';
