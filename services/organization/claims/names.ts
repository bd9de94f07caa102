import { aggregate } from '#shared/es/index.js';
import type { CommandContext } from '#shared/es/index.js';
import { renameClaimed } from '#shared/es/index.js';
import { nameClaimStream, type NameScope } from '#events/organization/claims.js';
import type { Platform } from '../../platform.js';
import { nameClaimDecider } from './decide.js';

/**
 * The organization's names (workspace, role and team names per company, usernames platform-wide):
 * each name an aggregate of its own stream, claimed before what bears it is written and released when
 * it goes. A claim is never read back, so nothing waits for a read model.
 */
export class OrgNames {
  private readonly names;

  constructor(platform: Pick<Platform, 'store' | 'readModels'>) {
    this.names = aggregate(platform, { decider: nameClaimDecider, stream: (id) => id, readModels: [] });
  }

  /** Holds `name` in `scope` for `ownerId`; 409 NAME_TAKEN when another holds it. */
  async claim(scope: NameScope, name: string, ownerId: number, what: string, context: CommandContext): Promise<void> {
    await this.names.run(nameClaimStream(scope, name), { type: 'ClaimName', scope, name, ownerId, what }, context, { settle: false });
  }

  /** Frees `name` in `scope` if `ownerId` holds it. */
  async release(scope: NameScope, name: string, ownerId: number, context: CommandContext): Promise<void> {
    await this.names.run(nameClaimStream(scope, name), { type: 'ReleaseName', scope, name, ownerId }, context, { settle: false });
  }

  /**
   * A rename: claim the new name first (so a clash changes nothing), apply the change, then release
   * the old name. When the change itself fails, the new claim is given back.
   */
  renamed<T>(scope: NameScope, what: string, ownerId: number, oldName: string, newName: string | undefined, context: CommandContext, change: () => Promise<T>): Promise<T> {
    return renameClaimed({ claim: (name) => this.claim(scope, name, ownerId, what, context), release: (name) => this.release(scope, name, ownerId, context) }, oldName, newName, change);
  }
}
