export { orgAccessReviewsProjection } from './projection.js';
export * from './queries.js';
