import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
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
export const mockServicesFeature = fp(
  async (app: FastifyInstance, opts: MockServicesFeatureOptions) => {
    await app.register(mockServicesRoutes, opts);
  },
  { name: 'tmt-mock-services', fastify: '5.x', dependencies: [] },
);
