export { nameClaimDecider, type NameClaimCommand, type NameClaimState } from './decide.js';
export { nameClaimStream, foldName, type NameClaimEvent, type NameScope } from '#events/organization/claims.js';
