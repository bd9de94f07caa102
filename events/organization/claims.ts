import { z } from 'zod';
import { hashToken } from '#shared/auth/index.js';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { foldName } from '#shared/es/index.js';

/** What a name must be unique within: workspace, role and team names per company; usernames platform-wide. */
export type NameScope = `workspace-name:${number}` | `role-name:${number}` | `team-name:${number}` | 'username';

const SCOPE = /^((workspace|role|team)-name:\d+|username)$/;
const claim = z.object({ scope: z.custom<NameScope>((v) => typeof v === 'string' && SCOPE.test(v), 'a name scope'), name: z.string(), ownerId: z.number().int() });

/** Events of the `name-claim-<hash>` streams: one stream per (scope, case-folded name). */
export const nameClaimEvents = defineEvents({ NameClaimed: claim, NameReleased: claim });
export type NameClaimEvent = EventOf<typeof nameClaimEvents>;

export { foldName };

export const nameClaimStream = (scope: NameScope, name: string): string => `name-claim-${hashToken(`${scope}\u0000${foldName(name)}`)}`;
