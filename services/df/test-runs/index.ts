import fp from 'fastify-plugin';
import { testRunRoutes, type TestRunRoutesOptions } from './routes.js';

// Test runs: an instrumentation suite sharded over devices — the run's decider, its planning, its
// history, its JUnit and HTML reports, the service that runs its shards on devices, and its routes.

/** The feature's options: those of its routes. */
export type TestRunsFeatureOptions = TestRunRoutesOptions;

/** Test runs (`/df/api/test-runs`): start, follow, cancel, rerun, JUnit and HTML reports. */
export const testRunsFeature = fp(
  async (app, opts: TestRunsFeatureOptions) => {
    await app.register(testRunRoutes, opts);
  },
  { name: 'df-test-runs', dependencies: [], fastify: '5.x' },
);

export { testRunDecider, type TestRunCommand } from './decide.js';
export { testHistory } from './history.js';
export { junitXml } from './junit.js';
export { batches, planShards, replan, resolveStrategy, retryTarget, selectTests, testKey, type History, type ListedTest, type TestHistory, type TestId } from './plan.js';
export { filedCases, TestRunService, type CreateTestRunInput, type FiledCase, type TestResultsPort, type TestRunServiceDeps } from './service.js';
export { countsOf, nextBatch, remainingTests, statusOf, type TestRunRecord } from './state.js';
