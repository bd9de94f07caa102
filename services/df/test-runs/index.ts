// Test runs: an instrumentation suite sharded over devices. The model so far: the run's decider, its
// planning, its history and its JUnit report; the routes and the agent's part are still to come.
export { testRunDecider, type TestRunCommand } from './decide.js';
export { testHistory } from './history.js';
export { junitXml } from './junit.js';
export { batches, planShards, replan, resolveStrategy, retryTarget, selectTests, testKey, type History, type ListedTest, type TestHistory, type TestId } from './plan.js';
export { countsOf, nextBatch, remainingTests, statusOf, type TestRunRecord } from './state.js';
