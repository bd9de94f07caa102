import { aggregate } from '#shared/es/index.js';
import { callerActor, commandContext, type Decider, type DomainEvent } from '#shared/es/index.js';
import type { KeyCommand, KeyState, StoredKey } from '#shared/es/index.js';
import type { WorkspaceCaller } from '#shared/http/params.js';
import { credentialApprovals } from './credential-approvals.js';
import type { Platform } from './platform.js';

/** The write side of one module's revocable API keys: the keys themselves, and approvals of held ones. */
export function revocableKeyWrites<Create extends string, Revoke extends string>(
  platform: Platform,
  o: { decider: Decider<KeyCommand<Create, Revoke, StoredKey>, DomainEvent, KeyState<StoredKey>>; stream(keyId: string): string; readModel: string },
) {
  const keys = aggregate(platform, { decider: o.decider, stream: o.stream, readModels: [o.readModel] });
  const approveCredential = credentialApprovals(platform);
  return {
    /** Creates or revokes a key as the caller, answered once the module's read model holds it. */
    run: async (c: WorkspaceCaller, keyId: string, command: KeyCommand<Create, Revoke, StoredKey>): Promise<void> => {
      await keys.run(keyId, command, commandContext(platform, callerActor(c)));
    },
    /** Records an administrator's approval of a key held by single sign-on. */
    approve: async (c: WorkspaceCaller, key: { id: string; createdBy: number }, kind: 'df-api-key' | 'hc-api-key'): Promise<void> => {
      await approveCredential({ credentialId: key.id, kind, userId: key.createdBy }, c.userId, commandContext(platform, callerActor(c)));
    },
  };
}
