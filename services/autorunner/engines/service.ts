import { engineStream } from '#events/autorunner/engines.js';
import { aggregate } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { engineDecider, type EngineCommand } from './decide.js';
import { callerActor, commandContext } from '#shared/es/index.js';
import { credentialApprovals } from '../../credential-approvals.js';

/** The write side of test engines: one aggregate per engine, answering once `ar-engines` holds the write. */
export function engineWrites(platform: Platform) {
  const engines = aggregate(platform, { decider: engineDecider, stream: engineStream, readModels: ['ar-engines'] });
  const approveCredential = credentialApprovals(platform);
  return {
    run: (caller: { userId: number; companyId: number; workspaceId: number }, engineId: string, command: EngineCommand) =>
      engines.run(engineId, command, commandContext(platform, callerActor(caller))),
    /** Records an administrator's approval of an engine whose token single sign-on holds. */
    approve: (caller: { userId: number; companyId: number; workspaceId: number }, engine: { id: string; createdBy: number }) =>
      approveCredential({ credentialId: engine.id, kind: 'engine', userId: engine.createdBy }, caller.userId, commandContext(platform, callerActor(caller))),
  };
}
