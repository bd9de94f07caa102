import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { ObservabilityFeatureOptions } from './options.js';
import { observabilityRoutes } from './routes.js';

export type { ObservabilityFeatureOptions } from './options.js';

/** `/api/v1/observability`: how the answering process serves metrics and exports traces, for operators. */
export const observabilityFeature = fp<ObservabilityFeatureOptions>(routePlugins(observabilityRoutes), { name: 'organization-observability', fastify: '5.x' });
