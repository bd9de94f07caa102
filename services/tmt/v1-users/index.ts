import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import type { TmtDeps } from '../deps.js';
import { v1UserRoutes } from './routes.js';

export { V1User } from './routes.js';

export interface V1UsersFeatureOptions {
  platform: Platform;
  deps: TmtDeps;
}

/** The company's users in the `/v1` set (`/v1/users`), written through the organization. */
export const v1UsersFeature = fp<V1UsersFeatureOptions>(routePlugins(v1UserRoutes), { name: 'tmt-v1-users', fastify: '5.x', dependencies: [] });
