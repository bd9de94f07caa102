import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import { engineRoutes, type EngineHeld } from './routes.js';

export { engineDecider, type EngineCommand } from './decide.js';
export { ENGINE_TOKEN_PREFIX, engineTokenVerifier } from './routes.js';

export interface EnginesFeatureOptions {
  platform: Platform;
  /** Whether an engine's token waits for an administrator's approval (single sign-on required). */
  held?: EngineHeld;
}

/** Test engines: registered by a user, each with the token it calls back with (`X-Engine-Token`). */
export const enginesFeature = fp<EnginesFeatureOptions>(routePlugins(engineRoutes), { name: 'autorunner-engines', fastify: '5.x', dependencies: [] });
