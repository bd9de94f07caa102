import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { checksRoutes, type CheckRoutesOptions } from './routes/index.js';

export { healthCheckDecider, type HealthCheckCommand } from './decide.js';
export { createPulseStore, type PulseStore } from './pulse-store.js';
export { createReaper } from './reaper.js';
export { createCheckService, type CheckService } from './service.js';

/** What the checks feature is given: the module's check service and pulse store (the reaper shares them). */
export type ChecksFeatureOptions = CheckRoutesOptions;

/** Health checks: create and manage checks, their push tokens, heartbeats, metrics and history. */
export const checksFeature = fp<ChecksFeatureOptions>(routePlugins(checksRoutes), { name: 'healthcheck-checks', fastify: '5.x', dependencies: [] });
