export { dfDevicesProjection } from './projection.js';
export * from './queries.js';
