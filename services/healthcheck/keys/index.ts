import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Platform } from '../../platform.js';
import { healthcheckApiKeyRoutes } from './routes.js';

export { healthcheckApiKeyDecider } from './decide.js';
export { HEALTHCHECK_KEY_PREFIX, healthcheckApiKeyVerifier } from './routes.js';

export interface KeysFeatureOptions {
  platform: Platform;
}

/** Health-check API keys (`X-API-KEY`): created, listed and revoked by a user. */
export const keysFeature = fp(
  async (app: FastifyInstance, opts: KeysFeatureOptions) => {
    await app.register(healthcheckApiKeyRoutes(opts.platform));
  },
  { name: 'healthcheck-keys', fastify: '5.x', dependencies: [] },
);
