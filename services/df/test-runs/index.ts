// Test runs: an instrumentation suite sharded over devices (docs/modules/device-testing.md). The model
// so far: the run's decider, its planning and its JUnit report; routes and the agent's part come later.
export { testRunDecider, type TestRunCommand } from './decide.js';
export { batches, planShards, replan, resolveStrategy, retryTarget, selectTests, testKey, type History, type ListedTest, type TestHistory, type TestId } from './plan.js';
export { countsOf, remainingTests, statusOf, type TestRunRecord } from './state.js';
