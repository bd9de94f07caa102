import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { junitImportRoutes } from './routes.js';
import type { JunitImportService } from './service.js';

export { parseJunit, type JunitCase, type JunitOutcome } from './parse.js';
export { JunitImportService, junitTitle, type JunitImport, type JunitResult } from './service.js';

export interface JunitImportFeatureOptions {
  imports: JunitImportService;
}

/** JUnit XML reports imported as test-session results (`/v1/test-sessions/{id}/results/junit`, `/v1/projects/{id}/junit-imports`). */
export const junitImportFeature = fp(
  async (app: FastifyInstance, opts: JunitImportFeatureOptions) => {
    await app.register(junitImportRoutes, { imports: opts.imports });
  },
  // An import records results in a session and creates the project's missing test cases.
  { name: 'tmt-junit-import', fastify: '5.x', dependencies: ['tmt-test-sessions', 'tmt-test-cases'] },
);
