export { orgIdentityProvidersProjection } from './projection.js';
export * from './queries.js';
