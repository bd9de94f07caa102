import fp from 'fastify-plugin';
import { fleetRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type FleetFeatureOptions = Parameters<typeof fleetRoutes>[1];

/** Dashboard, reports, plan limits and session defaults (`/df/api/dashboard`, `/df/api/reports`, `/df/api/quotas`, `/df/api/settings/session-defaults`). */
export const fleetFeature = fp(
  async (app, opts: FleetFeatureOptions) => {
    await app.register(fleetRoutes, opts);
  },
  { name: 'df-fleet', dependencies: [], fastify: '5.x' },
);

export { FleetService } from './service.js';
export { FleetSweeper } from './sweeper.js';
