export { dfSessionsProjection } from './projection.js';
export * from './queries.js';
export * from './verdicts.js';
export * from './videos.js';
