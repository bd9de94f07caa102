import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUser, isWorkspaceMember, workspaceMembers } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { commandContext } from '#shared/es/index.js';
import { IdParams, intId, requestActor, RoleRef } from '../../http.js';
import { assertMayGrantRoles, requireRoles } from '../../roles/index.js';
import { tags, workspaceGuards, type WorkspacesOptions } from '../guards.js';
import { WorkspaceWrites } from '../service.js';

const Member = z
  .object({
    userId: z.number().int(),
    name: z.string(),
    email: z.string(),
    status: z.string(),
    via: z.array(z.enum(['admin', 'user', 'team'])).describe('How the member may enter: administrator, a direct grant, a team grant'),
    roles: z.array(RoleRef),
  })
  .meta({ id: 'WorkspaceMember' });

/** Everyone who may enter a workspace, and their member roles there. */
export async function memberRoutes(app: FastifyInstance, opts: WorkspacesOptions): Promise<void> {
  const { db } = opts.platform;
  const { workspaceOr404, requireKeyIn, requireReadable, change } = workspaceGuards(opts);
  const writes = new WorkspaceWrites(opts.platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/workspaces/:id/members', {
    schema: { tags, summary: 'Everyone who can enter the workspace, how, and their roles there', params: IdParams, response: { 200: z.array(Member) } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireReadable(request, ws);
      return workspaceMembers(db, ws.companyId, ws.id);
    },
  });

  r.post('/workspaces/:id/members/roles', {
    schema: {
      tags,
      summary: 'Give a member roles in this workspace, added to those they have (WORKSPACE_MANAGE; only keys you hold there)',
      params: IdParams,
      body: z.object({ userId: intId, roleIds: z.array(intId).min(1).max(50) }),
      response: { 200: Member },
    },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      const keys = await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      const { userId, roleIds } = request.body;
      if (!(await getUser(db, ws.companyId, userId))) throw new AppError('NOT_FOUND', 'User not found');
      const roles = await requireRoles(db, ws.companyId, roleIds);
      if (!(await isWorkspaceMember(db, ws.id, userId))) throw new AppError('CONFLICT', 'The user cannot enter this workspace; grant access first');
      assertMayGrantRoles(keys, roles);
      await change(request, ws, { type: 'AssignMemberRoles', companyId: ws.companyId, userId, roleIds: roles.map((x) => x.id) });
      return found((await workspaceMembers(db, ws.companyId, ws.id)).find((m) => m.userId === userId), 'Member not found');
    },
  });

  r.delete('/workspaces/:id/members/:userId/roles/:roleId', {
    schema: { tags, summary: "Take one role from a member in this workspace (WORKSPACE_MANAGE)", params: IdParams.extend({ userId: intId, roleId: intId }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      if (!(await getUser(db, ws.companyId, request.params.userId))) throw new AppError('NOT_FOUND', 'User not found');
      await requireRoles(db, ws.companyId, [request.params.roleId]);
      await writes.removeMemberRole(ws, request.params.userId, request.params.roleId, commandContext(opts.platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });
}
