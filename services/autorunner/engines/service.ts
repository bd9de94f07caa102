import { engineStream } from '#events/autorunner/engines.js';
import { aggregate } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { engineDecider, type EngineCommand } from './decide.js';
import { callerActor, commandContext } from '#shared/es/index.js';

/** The write side of test engines: one aggregate per engine, answering once `ar-engines` holds the write. */
export function engineWrites(platform: Platform) {
  const engines = aggregate(platform, { decider: engineDecider, stream: engineStream, readModels: ['ar-engines'] });
  return {
    run: (caller: { userId: number; companyId: number; workspaceId: number }, engineId: string, command: EngineCommand) =>
      engines.run(engineId, command, commandContext(platform, callerActor(caller))),
  };
}
