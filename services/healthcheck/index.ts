import type { FastifyInstance } from 'fastify';
import { hcApiKeysProjection } from '#projections/hc-api-keys/index.js';
import { hcChecksProjection } from '#projections/hc-checks/index.js';
import type { Projection } from '#projections/types.js';
import type { HeaderCredential } from '../gateway/access-control.js';
import type { Platform } from '../platform.js';
import type { OrganizationModule } from '../organization/index.js';
import { feature, registerFeatures } from '#shared/http/features.js';
import { checksFeature, createCheckService, createPulseStore, createReaper } from './checks/index.js';
import { healthcheckApiKeyVerifier, keysFeature } from './keys/index.js';

export { healthCheckDecider } from './checks/index.js';
export { healthCheckEvents, type HealthCheckEvent } from '#events/healthcheck/checks.js';

/** The read models this module owns. */
export const healthcheckProjections: readonly Projection[] = [hcApiKeysProjection, hcChecksProjection];

/**
 * `X-API-KEY` counts on every `/healthcheck/api/v1/**` path except the key management itself (a key
 * cannot mint or revoke keys) and the push paths (public: their token is the credential).
 */
const API_KEY_PATHS = [/^\/healthcheck\/api\/v1\/(?!api-keys(\/|$))[^?]+$/];

/** Health checks (`/healthcheck/**`): API keys, checks with push tokens, heartbeats and metrics. */
export function createHealthcheckModule(platform: Platform, deps: { organization: OrganizationModule }) {
  const pulses = createPulseStore(platform.db);
  const checks = createCheckService(platform, pulses);
  const reaper = createReaper(platform, { checks, pulses, logger: platform.logger.child({ component: 'healthcheck-reaper' }) });
  let schemaReady: Promise<void> | null = null;
  const ensureSchema = () => (schemaReady ??= pulses.ensureSchema().catch((err: unknown) => {
    schemaReady = null;
    throw err;
  }));
  // Keys made from a password sign-in wait for approval where the company requires single sign-on.
  const held = (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => deps.organization.auth.enforcement.holds(key);
  const features = [feature(keysFeature, { platform, held }), feature(checksFeature, { platform, checks, pulses })];
  return {
    /** `X-API-KEY` for the gateway's access control. */
    credentials: [
      { header: 'x-api-key', paths: API_KEY_PATHS, label: 'health-check API key', verify: healthcheckApiKeyVerifier(platform, deps.organization.resolveWorkspace, held) },
    ] as HeaderCredential[],
    /** Creates the heartbeat and sample tables and starts the reaper. */
    async start(): Promise<void> {
      await ensureSchema();
      reaper.start();
    },
    async stop(): Promise<void> {
      await reaper.stop();
    },
    /** One pass of the reaper now (operations and tests); the started reaper runs it on its own. */
    reapOnce: () => reaper.reapOnce(),
    routes: async (app: FastifyInstance) => {
      app.addHook('onRequest', async () => {
        await ensureSchema();
      });
      await registerFeatures(app, features);
    },
  };
}

export type HealthcheckModule = ReturnType<typeof createHealthcheckModule>;
