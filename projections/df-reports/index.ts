export { dfReportsProjection } from './projection.js';
export * from './queries.js';
