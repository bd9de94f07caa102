import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUser, listTeams, type TeamView } from '#projections/org-directory/index.js';
import { AppError } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import { callerOf, IdParams, intId, requestActor, Team } from '../http.js';
import type { Platform } from '../../platform.js';
import { TeamService } from './service.js';
import { commandContext } from '#shared/es/index.js';

const tags = ['Teams'];
const teamName = z.string().trim().min(2).max(64);
const description = z.string().trim().max(1000);

export interface TeamsOptions {
  platform: Platform;
}

/** Teams and their members. */
export async function teamRoutes(app: FastifyInstance, opts: TeamsOptions): Promise<void> {
  const { platform } = opts;
  const { db } = platform;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const teams = new TeamService(platform);
  const teamOr404 = (companyId: number, teamId: number) => teams.teamOr404(companyId, teamId);

  r.get('/teams', {
    schema: { tags, summary: 'Teams of the company (TEAM_READ)', response: { 200: z.array(Team) } },
    handler: async (request) => {
      await requirePermission(request, 'TEAM_READ');
      return listTeams(db, callerOf(request).companyId);
    },
  });

  r.post('/teams', {
    schema: {
      tags,
      summary: 'Create a team; names are unique per company, case-insensitive (TEAM_MANAGE)',
      body: z.object({ name: teamName, description: description.default('') }),
      response: { 201: Team },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'TEAM_MANAGE');
      const team = await teams.create(callerOf(request).companyId, request.body, commandContext(platform, requestActor(request)));
      return reply.code(201).send(team);
    },
  });

  r.get('/teams/:id', {
    schema: { tags, summary: 'One team (TEAM_READ)', params: IdParams, response: { 200: Team } },
    handler: async (request) => {
      await requirePermission(request, 'TEAM_READ');
      return teamOr404(callerOf(request).companyId, request.params.id);
    },
  });

  r.put('/teams/:id', {
    schema: {
      tags,
      summary: 'Rename or describe a team (TEAM_MANAGE)',
      params: IdParams,
      body: z.object({ name: teamName.optional(), description: description.optional() }),
      response: { 200: Team },
    },
    handler: async (request) => {
      await requirePermission(request, 'TEAM_MANAGE');
      const p = callerOf(request);
      const team = await teamOr404(p.companyId, request.params.id);
      return teams.update(team, p.companyId, request.body, commandContext(platform, requestActor(request)));
    },
  });

  r.delete('/teams/:id', {
    schema: { tags, summary: 'Delete a team; workspace access granted to it ends (TEAM_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await requirePermission(request, 'TEAM_MANAGE');
      const p = callerOf(request);
      const team = await teamOr404(p.companyId, request.params.id);
      await teams.delete(team, p.companyId, commandContext(platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });

  const MemberParams = z.object({ id: intId, userId: intId });
  /** Adds or removes a member: both the team and the user must be of the caller's company (404). */
  const changeMember = async (request: FastifyRequest, params: z.infer<typeof MemberParams>, type: 'AddMember' | 'RemoveMember'): Promise<TeamView> => {
    await requirePermission(request, 'TEAM_MANAGE');
    const p = callerOf(request);
    const team = await teamOr404(p.companyId, params.id);
    if (!(await getUser(db, p.companyId, params.userId))) throw new AppError('NOT_FOUND', 'User not found');
    const change = type === 'AddMember' ? { add: [params.userId] } : { remove: [params.userId] };
    return teams.changeMembers(team, p.companyId, change, commandContext(platform, requestActor(request)));
  };

  r.post('/teams/:id/members/:userId', {
    schema: { tags, summary: 'Add a user of the company to the team (TEAM_MANAGE)', params: MemberParams, response: { 200: Team } },
    handler: async (request) => changeMember(request, request.params, 'AddMember'),
  });

  r.delete('/teams/:id/members/:userId', {
    schema: { tags, summary: 'Remove a member from the team (TEAM_MANAGE)', params: MemberParams, response: { 200: Team } },
    handler: async (request) => changeMember(request, request.params, 'RemoveMember'),
  });
}
