export { dfOperationsProjection } from './projection.js';
export * from './queries.js';
