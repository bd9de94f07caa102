import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getTeam, getUser, workspaceAccess, type WorkspaceView } from '#projections/org-directory/index.js';
import { AppError } from '#shared/errors.js';
import type { Grantee } from '#events/organization/workspaces.js';
import { callerOf, IdParams, intId } from '../../http.js';
import { tags, workspaceGuards, type WorkspacesOptions } from '../guards.js';

const Access = z
  .object({
    teams: z.array(z.object({ id: z.number().int(), name: z.string() })),
    users: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
  })
  .meta({ id: 'WorkspaceAccess' });

/** Who may enter a workspace by grant: teams and users. */
export async function accessRoutes(app: FastifyInstance, opts: WorkspacesOptions): Promise<void> {
  const { db } = opts.platform;
  const { workspaceOr404, requireKeyIn, change } = workspaceGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/workspaces/:id/access', {
    schema: { tags, summary: 'Current team and user grants (WORKSPACE_READ)', params: IdParams, response: { 200: Access } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_READ');
      return workspaceAccess(db, ws.id);
    },
  });

  const grant = async (request: FastifyRequest, ws: WorkspaceView, grantee: Grantee, revoke: boolean) => {
    await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
    const companyId = callerOf(request).companyId;
    if (grantee.kind === 'team' && !(await getTeam(db, companyId, grantee.teamId))) throw new AppError('NOT_FOUND', 'Team not found');
    if (grantee.kind === 'user' && !(await getUser(db, companyId, grantee.userId))) throw new AppError('NOT_FOUND', 'User not found');
    await change(request, ws, { type: revoke ? 'RevokeAccess' : 'GrantAccess', companyId, grantee });
  };

  r.post('/workspaces/:id/access/teams', {
    schema: { tags, summary: 'Grant a team access (WORKSPACE_MANAGE)', params: IdParams, body: z.object({ teamId: intId }), response: { 200: Access } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await grant(request, ws, { kind: 'team', teamId: request.body.teamId }, false);
      return workspaceAccess(db, ws.id);
    },
  });

  r.delete('/workspaces/:id/access/teams/:teamId', {
    schema: { tags, summary: "Revoke a team's access (WORKSPACE_MANAGE)", params: IdParams.extend({ teamId: intId }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      const ws = await workspaceOr404(request, request.params.id);
      await grant(request, ws, { kind: 'team', teamId: request.params.teamId }, true);
      return reply.code(204).send(null);
    },
  });

  r.post('/workspaces/:id/access/users', {
    schema: { tags, summary: 'Grant a user access (WORKSPACE_MANAGE)', params: IdParams, body: z.object({ userId: intId }), response: { 200: Access } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await grant(request, ws, { kind: 'user', userId: request.body.userId }, false);
      return workspaceAccess(db, ws.id);
    },
  });

  r.delete('/workspaces/:id/access/users/:userId', {
    schema: { tags, summary: "Revoke a user's direct access (WORKSPACE_MANAGE)", params: IdParams.extend({ userId: intId }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      const ws = await workspaceOr404(request, request.params.id);
      await grant(request, ws, { kind: 'user', userId: request.params.userId }, true);
      return reply.code(204).send(null);
    },
  });
}
