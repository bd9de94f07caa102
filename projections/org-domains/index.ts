export { orgDomainsProjection } from './projection.js';
export * from './queries.js';
