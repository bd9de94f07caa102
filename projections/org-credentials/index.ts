export { orgCredentialsProjection } from './projection.js';
export * from './queries.js';
