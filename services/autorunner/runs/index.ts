import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import { runRoutes, type TestSessionSink } from './routes.js';

export { runDecider, type RunCommand } from './decide.js';
export type { TestSessionSink } from './routes.js';

export interface RunsFeatureOptions {
  platform: Platform;
  /** Where a run's results go: the test sessions of test management. */
  sessions: TestSessionSink;
}

/** Runs an engine reports, with their results fed into test sessions. */
export const runsFeature = fp<RunsFeatureOptions>(routePlugins(runRoutes), { name: 'autorunner-runs', fastify: '5.x', dependencies: [] });
