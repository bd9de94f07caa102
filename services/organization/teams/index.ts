export { teamDecider, type TeamCommand, type TeamState } from './decide.js';
export { teamStream, type TeamEvent } from '#events/organization/teams.js';
