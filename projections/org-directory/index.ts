export { orgDirectoryProjection } from './projection.js';
export * from './queries/index.js';
