export { hcChecksProjection } from './projection.js';
export * from './queries.js';
