import { runStream } from '#events/autorunner/runs.js';
import { aggregate } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { runDecider, type RunCommand } from './decide.js';
import { commandContext } from '#shared/es/index.js';

/** The engine a run's report comes from: it acts as `engine:<id>` in its company and workspace. */
export interface EngineActor {
  engineId: string;
  companyId: number;
  workspaceId: number;
}

/** The write side of test runs: one aggregate per run, answering once `ar-runs` holds the write. */
export function runWrites(platform: Platform) {
  const runs = aggregate(platform, { decider: runDecider, stream: runStream, readModels: ['ar-runs'] });
  return {
    run: (engine: EngineActor, runId: string, command: RunCommand) =>
      runs.run(runId, command, commandContext(platform, { actorId: `engine:${engine.engineId}`, companyId: engine.companyId, workspaceId: engine.workspaceId })),
  };
}
