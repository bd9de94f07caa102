import fp from 'fastify-plugin';
import { loadSecretBox } from '#shared/auth/index.js';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import type { WebhookFeatureOptions } from './options.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { webhookRoutes } from './routes/webhooks.js';
import { WebhookService } from './service.js';

export { WebhookService } from './service.js';
export type { WebhookFeatureOptions } from './options.js';

/** A workspace's webhooks under `/api/v1/workspaces/{id}/webhooks`: endpoints, their delivery log, redelivery. */
export const webhooksFeature = fp<WebhookFeatureOptions>(
  routePlugins(webhookRoutes, deliveryRoutes),
  { name: 'organization-webhooks', fastify: '5.x' },
);

/**
 * Builds webhooks: the service, its signing secrets sealed under `SECRETS_KEY` (docs/operations.md,
 * "Secrets at rest"), and its start: the dispatcher, and in the background (the start waits for no read
 * model) every secret under an older key, or not sealed yet, sealed under the current one. A failure
 * is logged and tried again at the next start.
 */
export function createWebhooks(platform: Platform) {
  const { SECRETS_KEY, SECRETS_PREVIOUS_KEYS, DATA_DIR } = platform.config;
  const service = new WebhookService(platform, loadSecretBox({ key: SECRETS_KEY, previousKeys: SECRETS_PREVIOUS_KEYS, dataDir: DATA_DIR }));
  const start = async () => {
    void service.resealSecrets().then(
      (count) => {
        if (count > 0) platform.logger.info({ count }, 'webhook signing secrets sealed under the current SECRETS_KEY');
      },
      (err: unknown) => platform.logger.error({ err }, 'webhook signing secrets were not sealed again under the current SECRETS_KEY; the next start tries again'),
    );
    await service.dispatcher.start();
  };
  return { service, start, stop: () => service.dispatcher.stop() };
}
