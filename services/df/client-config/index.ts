import fp from 'fastify-plugin';
import { clientConfigRoutes, type ClientConfigOptions } from './routes.js';

/** Client configuration: where clients find the module's endpoints, and dfctl's manifest and files. */
export const clientConfigFeature = fp(
  async (app, opts: ClientConfigOptions) => {
    await app.register(clientConfigRoutes, opts);
  },
  { name: 'df-client-config', dependencies: [], fastify: '5.x' },
);

export type { ClientConfigOptions } from './routes.js';
