export { arEnginesProjection } from './projection.js';
export * from './queries.js';
