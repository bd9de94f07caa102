export { hcApiKeysProjection } from './projection.js';
export * from './queries.js';
