import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Platform } from '../../platform.js';
import { healthcheckApiKeyRoutes } from './routes.js';

export { healthcheckApiKeyDecider } from './decide.js';
export { HEALTHCHECK_KEY_PREFIX, healthcheckApiKeyVerifier } from './routes.js';

export interface KeysFeatureOptions {
  platform: Platform;
  /** Whether a key waits for an administrator's approval (single sign-on required). */
  held?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>;
}

/** Health-check API keys (`X-API-KEY`): created, listed and revoked by a user. */
export const keysFeature = fp(
  async (app: FastifyInstance, opts: KeysFeatureOptions) => {
    await app.register(healthcheckApiKeyRoutes(opts.platform, opts.held));
  },
  { name: 'healthcheck-keys', fastify: '5.x', dependencies: [] },
);
