export { tmtProjectsProjection } from './projection.js';
export * from './queries.js';
