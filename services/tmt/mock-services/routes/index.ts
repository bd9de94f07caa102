import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../../platform.js';
import { mockServiceRoutes } from './definitions.js';
import { publicDispatch } from './public.js';

export { mockPublicPath } from './shared.js';

/** `/tmt/api/v1/mock-services`: define mock services; `/tmt/api/v1/public/<module>/mock-services/<publicId>/...` answers them. */
export async function mockServicesRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  await app.register(mockServiceRoutes, opts);
  await app.register(publicDispatch, opts);
}
