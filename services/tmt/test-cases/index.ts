import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import { testCaseRoutes } from './routes.js';

export { testCaseDecider } from './decide.js';
export { TestCase } from './routes.js';

export interface TestCasesFeatureOptions {
  platform: Platform;
}

/** Test cases of a project (`/v1/test-cases`). */
export const testCasesFeature = fp<TestCasesFeatureOptions>(
  routePlugins(testCaseRoutes),
  // A test case lives in a project.
  { name: 'tmt-test-cases', fastify: '5.x', dependencies: ['tmt-projects'] },
);
