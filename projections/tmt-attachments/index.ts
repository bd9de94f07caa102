export { tmtAttachmentsProjection } from './projection.js';
export * from './queries.js';
