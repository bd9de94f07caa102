export { orgScimProjection } from './projection.js';
export * from './queries.js';
