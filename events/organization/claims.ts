import { hashToken } from '#shared/auth/index.js';
import { foldName } from '#shared/es/name-claim-decider.js';

/** What a name must be unique within: workspace, role and team names per company; usernames platform-wide. */
export type NameScope = `workspace-name:${number}` | `role-name:${number}` | `team-name:${number}` | 'username';

/** Events of the `name-claim-<hash>` streams: one stream per (scope, case-folded name). */
export type NameClaimEvent =
  | { type: 'NameClaimed'; payload: { scope: NameScope; name: string; ownerId: number } }
  | { type: 'NameReleased'; payload: { scope: NameScope; name: string; ownerId: number } };

export { foldName };

export const nameClaimStream = (scope: NameScope, name: string): string => `name-claim-${hashToken(`${scope}\u0000${foldName(name)}`)}`;
