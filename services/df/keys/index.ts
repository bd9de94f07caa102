import fp from 'fastify-plugin';
import type { Platform } from '../../platform.js';
import { apiKeyRoutes } from './routes.js';

export interface KeysFeatureOptions {
  platform: Platform;
  /** Plan limits: one more key fits the plan. */
  quota: { checkApiKey(companyId: number): Promise<void> };
  /** Whether a key waits for an administrator's approval (single sign-on required). */
  held?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>;
}

/** The module's API keys (`/df/api/keys`). */
export const keysFeature = fp(
  async (app, opts: KeysFeatureOptions) => {
    await app.register(apiKeyRoutes(opts.platform, opts.quota, opts.held));
  },
  { name: 'df-keys', dependencies: [], fastify: '5.x' },
);

export { apiKeyVerifier } from './routes.js';
