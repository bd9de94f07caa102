export { dfSessionSharingProjection } from './projection.js';
export * from './queries.js';
