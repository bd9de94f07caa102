import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { FastifyInstance } from 'fastify';
import { SCIM_CONTENT_TYPE } from './protocol.js';
import type { ScimFeatureOptions } from './options.js';
import type { ScimProtocolOptions } from './routes/common.js';
import { scimDiscoveryRoutes } from './routes/discovery.js';
import { scimGroupRoutes } from './routes/groups.js';
import { scimTokenRoutes } from './routes/tokens.js';
import { scimUserRoutes } from './routes/users.js';

export { scimTokenDecider, type ScimTokenCommand, type ScimTokenState } from './decide.js';
export { ScimService, SCIM_TOKEN_PREFIX, type ScimCaller } from './service.js';
export type { ScimFeatureOptions, ScimProtocolOptions };

/** The company's SCIM tokens, under `/api/v1` (docs/modules/scim.md). */
export const scimFeature = fp<ScimFeatureOptions>(routePlugins(scimTokenRoutes), { name: 'organization-scim', fastify: '5.x' });

/** The SCIM 2.0 service at `/scim/v2`: directories send and receive `application/scim+json`. */
async function scimProtocol(app: FastifyInstance, opts: ScimProtocolOptions): Promise<void> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string' }, parseJson);
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('application/json')) reply.type(`${SCIM_CONTENT_TYPE}; charset=utf-8`);
    return payload;
  });
  // Only the options these routes take: `opts` also carries this plugin's own prefix.
  const routes = { platform: opts.platform, scim: opts.scim };
  await app.register(scimDiscoveryRoutes);
  await app.register(scimUserRoutes, routes);
  await app.register(scimGroupRoutes, routes);
}

/** Registered at the root, outside the module's `/api/v1` prefix. */
export const scimProtocolFeature = fp<ScimProtocolOptions>(
  async (app, opts) => {
    await app.register(scimProtocol, { ...opts, prefix: '/scim/v2' });
  },
  { name: 'organization-scim-protocol', fastify: '5.x' },
);
