export { dfFilesProjection } from './projection.js';
export * from './queries.js';
