import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { AccessReviewOptions } from './options.js';
import { accessReviewRoutes } from './routes/as-of.js';
import { accessReviewWorkflowRoutes } from './routes/reviews.js';

export type { AccessReviewOptions };
export { accessReviewAt, accessStateAt } from './reads.js';
export { ACCESS_EVENT_TYPES, foldAccess } from './fold.js';
export { reviewWorkspace, type AccessReview } from './review.js';
export { AccessReviewSchema } from './routes/as-of.js';
export { reviewCsv } from './csv.js';
export { AccessReviewService, type Reviewer } from './service.js';

/**
 * Access reviews (AUDIT_READ): `GET /api/v1/access-review`, who held what in a workspace at a moment,
 * rebuilt from the company's events; and `/api/v1/access-reviews`, the review workflow — a workspace's
 * grants marked keep or revoke, the revocations carried out by the grants' own commands, the finished
 * review kept as evidence.
 */
export const accessReviewFeature = fp<AccessReviewOptions>(routePlugins(accessReviewRoutes, accessReviewWorkflowRoutes), { name: 'organization-access-review', fastify: '5.x' });
