import fp from 'fastify-plugin';
import { debugRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type DebugFeatureOptions = Parameters<typeof debugRoutes>[1];

/** Debugging (`/df/api/sessions/{id}/debug-capabilities`, `debug-targets`, `/df/debug-tunnel`): what a device offers, targets, tunnels. */
export const debugFeature = fp(
  async (app, opts: DebugFeatureOptions) => {
    await app.register(debugRoutes, opts);
  },
  { name: 'df-debug', dependencies: [], fastify: '5.x' },
);

export { DebugService } from './service.js';
