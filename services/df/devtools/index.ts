import fp from 'fastify-plugin';
import { devtoolsRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type DevtoolsFeatureOptions = Parameters<typeof devtoolsRoutes>[1];

/** `/df/devtools/{sessionId}`: the Chrome DevTools protocol of a session's browser device. */
export const devtoolsFeature = fp(
  async (app, opts: DevtoolsFeatureOptions) => {
    await app.register(devtoolsRoutes, opts);
  },
  { name: 'df-devtools', dependencies: [], fastify: '5.x' },
);
