import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Platform } from '../../platform.js';
import { engineRoutes } from './routes.js';

export { engineDecider, type EngineCommand } from './decide.js';
export { ENGINE_TOKEN_PREFIX, engineTokenVerifier } from './routes.js';

export interface EnginesFeatureOptions {
  platform: Platform;
}

/** Test engines: registered by a user, each with the token it calls back with (`X-Engine-Token`). */
export const enginesFeature = fp(
  async (app: FastifyInstance, opts: EnginesFeatureOptions) => {
    await app.register(engineRoutes, opts);
  },
  { name: 'autorunner-engines', fastify: '5.x', dependencies: [] },
);
