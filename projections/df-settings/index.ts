export { dfSettingsProjection } from './projection.js';
export * from './queries.js';
