export { dfDevicesProjection } from './projection.js';
export * from './queries.js';
export * from './health.js';
