export { mockServiceDecider, type MockServiceCommand, type MockServiceState } from './decide.js';
export { matchRoute, MockDefinitionInput, MockRouteInput, pathPatternProblem, pathSegments, type MockRoute } from './definition.js';
export { MOCK_SERVICE_EVENT_TYPES, mockServiceStream, type MockServiceEvent } from '#events/tmt/mock-services.js';
export { mockPublicPath, mockServiceRoutes } from './routes.js';
