import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Platform } from '../../platform.js';
import { testCaseRoutes } from './routes.js';

export { testCaseDecider } from './decide.js';
export { TestCase } from './routes.js';

export interface TestCasesFeatureOptions {
  platform: Platform;
}

/** Test cases of a project (`/v1/test-cases`). */
export const testCasesFeature = fp(
  async (app: FastifyInstance, opts: TestCasesFeatureOptions) => {
    await app.register(testCaseRoutes, opts);
  },
  // A test case lives in a project.
  { name: 'tmt-test-cases', fastify: '5.x', dependencies: ['tmt-projects'] },
);
