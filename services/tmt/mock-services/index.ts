import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import { mockServicesRoutes } from './routes/index.js';

export { mockServiceDecider, type MockServiceCommand, type MockServiceState } from './decide.js';
export { matchRoute, MockDefinitionInput, MockRouteInput, pathPatternProblem, pathSegments, type MockRoute } from './definition.js';
export { MOCK_SERVICE_EVENT_TYPES, mockServiceStream, type MockServiceEvent } from '#events/tmt/mock-services.js';
export { mockPublicPath } from './routes/index.js';

export interface MockServicesFeatureOptions {
  platform: Platform;
}

/** Mock services: defined in the workspace, answered at their public URL. */
export const mockServicesFeature = fp<MockServicesFeatureOptions>(
  routePlugins(mockServicesRoutes),
  { name: 'tmt-mock-services', fastify: '5.x', dependencies: [] },
);
