import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { accessReviewRoutes, type AccessReviewOptions } from './routes.js';

export type { AccessReviewOptions };
export { accessReviewAt, accessStateAt } from './reads.js';
export { ACCESS_EVENT_TYPES, foldAccess } from './fold.js';
export { reviewWorkspace, type AccessReview } from './review.js';
export { AccessReviewSchema } from './routes.js';
export { reviewCsv } from './csv.js';

/** `GET /api/v1/access-review`: who held what in a workspace at a moment, rebuilt from the company's events (AUDIT_READ). */
export const accessReviewFeature = fp<AccessReviewOptions>(routePlugins(accessReviewRoutes), { name: 'organization-access-review', fastify: '5.x' });
