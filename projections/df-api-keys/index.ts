export { dfApiKeysProjection } from './projection.js';
export * from './queries.js';
