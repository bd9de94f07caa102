import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { WebhookFeatureOptions } from './options.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { webhookRoutes } from './routes/webhooks.js';

export { WebhookService } from './service.js';
export type { WebhookFeatureOptions } from './options.js';

/** A workspace's webhooks under `/api/v1/workspaces/{id}/webhooks`: endpoints, their delivery log, redelivery. */
export const webhooksFeature = fp<WebhookFeatureOptions>(
  routePlugins(webhookRoutes, deliveryRoutes),
  { name: 'organization-webhooks', fastify: '5.x' },
);
