import { nameClaimDecider as claimDecider, type NameClaimCommands } from '#shared/es/index.js';
import type { NameScope } from '#events/organization/claims.js';

export type NameClaimCommand = NameClaimCommands<'ClaimName', 'ReleaseName', NameScope, number>;

export type NameClaimState = { ownerId: number | null };

/**
 * Workspace, role and team names per company, usernames platform-wide: one stream per name, so of two
 * concurrent claims exactly one wins. A rename claims the new name before it releases the old one; a
 * delete releases it.
 */
export const nameClaimDecider = claimDecider<NameScope, number, 'ClaimName', 'ReleaseName', 'NameClaimed', 'NameReleased'>({
  claim: 'ClaimName',
  release: 'ReleaseName',
  claimed: 'NameClaimed',
  released: 'NameReleased',
});
