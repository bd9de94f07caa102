import { engineStream } from '#events/autorunner/engines.js';
import { aggregate } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import { engineDecider, type EngineCommand } from './decide.js';
import { callerActor, commandContext, credentialApprovalDecider } from '#shared/es/index.js';
import { credentialApprovalStream } from '#events/organization/credentials.js';

/** The write side of test engines: one aggregate per engine, answering once `ar-engines` holds the write. */
export function engineWrites(platform: Platform) {
  const engines = aggregate(platform, { decider: engineDecider, stream: engineStream, readModels: ['ar-engines'] });
  const approvals = aggregate(platform, { decider: credentialApprovalDecider, stream: credentialApprovalStream, readModels: ['org-credentials'] });
  return {
    run: (caller: { userId: number; companyId: number; workspaceId: number }, engineId: string, command: EngineCommand) =>
      engines.run(engineId, command, commandContext(platform, callerActor(caller))),
    /** Records an administrator's approval of an engine whose token single sign-on holds. */
    approve: (caller: { userId: number; companyId: number; workspaceId: number }, engine: { id: string; createdBy: number }) =>
      approvals.run(
        engine.id,
        { type: 'ApproveCredential', credentialId: engine.id, kind: 'engine', userId: engine.createdBy, approvedBy: caller.userId },
        commandContext(platform, callerActor(caller)),
      ),
  };
}
