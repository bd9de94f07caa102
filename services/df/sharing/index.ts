import fp from 'fastify-plugin';
import { sharingRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type SharingFeatureOptions = Parameters<typeof sharingRoutes>[1];

/** Sharing a session (`/df/api/sessions/{id}/invitations`, accepting an invitation). */
export const sharingFeature = fp(
  async (app, opts: SharingFeatureOptions) => {
    await app.register(sharingRoutes, opts);
  },
  { name: 'df-sharing', dependencies: [], fastify: '5.x' },
);

export { SharingService } from './service.js';
