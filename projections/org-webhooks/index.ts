export { orgWebhooksProjection } from './projection.js';
export * from './queries.js';
