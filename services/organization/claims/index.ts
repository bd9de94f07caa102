import fp from 'fastify-plugin';

export { nameClaimDecider, type NameClaimCommand, type NameClaimState } from './decide.js';
export { nameClaimStream, foldName, type NameClaimEvent, type NameScope } from '#events/organization/claims.js';
export { OrgNames } from './names.js';

/** Name claims take no options: they have no route, and their commands run through `OrgNames`. */
export type ClaimsOptions = Record<string, never>;

/**
 * Name claims (workspace, role and team names per company, usernames platform-wide): a write-side
 * aggregate with no HTTP face. The plugin registers nothing; it stands in the module's feature list
 * like every feature, so the list is the whole of the module.
 */
export const claimsFeature = fp<ClaimsOptions>(async () => {}, { name: 'organization-claims', fastify: '5.x' });
