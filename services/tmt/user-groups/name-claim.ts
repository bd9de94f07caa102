import { z } from 'zod';
import { hashToken } from '#shared/auth/index.js';
import { handleCommand, type CommandContext } from '#shared/es/index.js';
import { foldName, nameClaimDecider, renameClaimed, type NameClaimCommands } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';

export { foldName };

/** What a test-management name is unique within: user groups per company, mock services per workspace. */
export type TmtNameScope = `user-group-name:${number}` | `mock-service-name:${number}`;

export const TmtNameClaimPayloads = {
  TmtNameClaimed: z.object({ scope: z.string(), name: z.string(), ownerId: z.string() }),
  TmtNameReleased: z.object({ scope: z.string(), name: z.string(), ownerId: z.string() }),
} as const;

export type TmtNameClaimEvent =
  | { type: 'TmtNameClaimed'; payload: z.infer<typeof TmtNameClaimPayloads.TmtNameClaimed> }
  | { type: 'TmtNameReleased'; payload: z.infer<typeof TmtNameClaimPayloads.TmtNameReleased> };

export type TmtNameClaimCommand = NameClaimCommands<'ClaimTmtName', 'ReleaseTmtName', TmtNameScope, string>;

/** One stream per (scope, folded name): of two concurrent claims exactly one appends. */
export const tmtNameClaimStream = (scope: TmtNameScope, name: string): string => `tmt-name-claim-${hashToken(`${scope}\u0000${foldName(name)}`)}`;

/** Uniqueness without a read model (`shared/es/name-claim-decider.ts`). */
export const tmtNameClaimDecider = nameClaimDecider<string, string, 'ClaimTmtName', 'ReleaseTmtName', 'TmtNameClaimed', 'TmtNameReleased'>({
  claim: 'ClaimTmtName',
  release: 'ReleaseTmtName',
  claimed: 'TmtNameClaimed',
  released: 'TmtNameReleased',
});

/** Claims, releases and renames names of one scope. */
export class TmtNames {
  constructor(private readonly store: EventStore) {}

  /** Holds `name` for `ownerId`; 409 NAME_TAKEN when another holds it. */
  async claim(scope: TmtNameScope, name: string, ownerId: string, what: string, context: CommandContext): Promise<void> {
    await handleCommand({ store: this.store, streamId: tmtNameClaimStream(scope, name), decider: tmtNameClaimDecider, command: { type: 'ClaimTmtName', scope, name, ownerId, what }, context });
  }

  /** Frees `name` if `ownerId` holds it. */
  async release(scope: TmtNameScope, name: string, ownerId: string, context: CommandContext): Promise<void> {
    await handleCommand({ store: this.store, streamId: tmtNameClaimStream(scope, name), decider: tmtNameClaimDecider, command: { type: 'ReleaseTmtName', scope, name, ownerId }, context });
  }

  /**
   * A rename: claim the new name first (so a clash changes nothing), apply the change, then release
   * the old one; when the change fails the new claim is given back.
   */
  async renamed<T>(scope: TmtNameScope, what: string, ownerId: string, oldName: string, newName: string | undefined, context: CommandContext, change: () => Promise<T>): Promise<T> {
    return renameClaimed({ claim: (name) => this.claim(scope, name, ownerId, what, context), release: (name) => this.release(scope, name, ownerId, context) }, oldName, newName, change);
  }
}
