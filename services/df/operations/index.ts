import fp from 'fastify-plugin';
import { operationRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type OperationsFeatureOptions = Parameters<typeof operationRoutes>[1];

/** Long-running operations (`/df/api/operations/{id}`). */
export const operationsFeature = fp(
  async (app, opts: OperationsFeatureOptions) => {
    await app.register(operationRoutes, opts);
  },
  { name: 'df-operations', dependencies: [], fastify: '5.x' },
);

export { OperationService, type JobContext } from './service.js';
