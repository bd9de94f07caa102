export { dfAccessibilityProjection } from './projection.js';
export * from './queries.js';
