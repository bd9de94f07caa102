import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { DomainFeatureOptions } from './options.js';
import { domainRoutes } from './routes.js';

export { DomainService } from './service.js';
export { enforcingIdentityProvider, offeredIdentityProviders, refuseAddressOfOthers, refuseDomainsOfOthers, refuseVerifiedAddress, requireOwnAddress } from './ownership.js';
export type { DomainFeatureOptions } from './options.js';

/** A company's e-mail domains under `/api/v1/domains`: claimed, proven through DNS, released. */
export const domainsFeature = fp<DomainFeatureOptions>(routePlugins(domainRoutes), { name: 'organization-domains', fastify: '5.x' });
