import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { teamRoutes, type TeamsOptions } from './routes.js';

export { teamDecider, type TeamCommand, type TeamState } from './decide.js';
export { TeamService } from './service.js';
export { teamStream, type TeamEvent } from '#events/organization/teams.js';

export type { TeamsOptions };

/** Teams of a company and their members. */
export const teamsFeature = fp<TeamsOptions>(routePlugins(teamRoutes), { name: 'organization-teams', fastify: '5.x' });
