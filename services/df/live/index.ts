import fp from 'fastify-plugin';
import { viewerSocketRoutes } from './ws-routes.js';

/** The feature's options: those of its routes. */
export type LiveFeatureOptions = Parameters<typeof viewerSocketRoutes>[1];

/** The viewer WebSocket (`/df/ws/sessions/{id}`): live screen, input, presence and a terminal. */
export const liveFeature = fp(
  async (app, opts: LiveFeatureOptions) => {
    await app.register(viewerSocketRoutes, opts);
  },
  { name: 'df-live', dependencies: ['df-sharing', 'df-debug'], fastify: '5.x' },
);

export { liftAccessToken, type TokenAuthenticator } from './ws-routes.js';
