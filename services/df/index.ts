import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform.js';
import { clientConfigRoutes } from './client-config.js';

/** The device-testing module; its routes are relative to `/df`, which the gateway strips. */
export function createDfModule(_platform: Platform) {
  return {
    routes: async (app: FastifyInstance) => {
      await app.register(clientConfigRoutes, { sessionIdleTimeoutSeconds: 900 });
    },
  };
}

export type DfModule = ReturnType<typeof createDfModule>;
