import fp from 'fastify-plugin';
import { deviceRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type DevicesFeatureOptions = Parameters<typeof deviceRoutes>[1];

/** Devices (`/df/api/devices`): the list, facets, a device's page, its preferences. */
export const devicesFeature = fp(
  async (app, opts: DevicesFeatureOptions) => {
    await app.register(deviceRoutes, opts);
  },
  { name: 'df-devices', dependencies: [], fastify: '5.x' },
);

export { DeviceCommands } from './service.js';
export { deviceDecider, type DeviceCommand, type DeviceState } from './decide.js';
export { DeviceSchema } from './routes.js';
