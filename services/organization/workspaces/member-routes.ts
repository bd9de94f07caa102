import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getTeam, getUser, isWorkspaceMember, workspaceAccess, workspaceMembers, type WorkspaceView } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import { OrgWriter } from '../commands.js';
import { callerOf, IdParams, intId, RoleRef } from '../http.js';
import { assertMayGrantRoles, requireRoles } from '../roles/grant.js';
import { workspaceGuards } from './guards.js';
import type { Grantee } from '#events/organization/workspaces.js';
import { moduleList } from './rules.js';

const tags = ['Workspaces'];

const Modules = z.object({ modules: z.array(z.string()) }).meta({ id: 'WorkspaceModules' });

const Access = z
  .object({
    teams: z.array(z.object({ id: z.number().int(), name: z.string() })),
    users: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
  })
  .meta({ id: 'WorkspaceAccess' });

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

/** A workspace's modules, its access grants and its members with their roles. */
export async function workspaceMemberRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const { db } = platform;
  const writer = new OrgWriter(platform);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { workspaceOr404, requireKeyIn, canEnter, requireReadable, change } = workspaceGuards(platform, writer);

  r.get('/workspaces/:id/modules', {
    schema: { tags, summary: 'Modules the workspace is entitled to', params: IdParams, response: { 200: Modules } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireReadable(request, ws);
      return { modules: ws.modules };
    },
  });

  r.put('/workspaces/:id/modules', {
    schema: { tags, summary: 'Change the modules the workspace is entitled to (WORKSPACE_MANAGE)', params: IdParams, body: z.object({ modules: moduleList }), response: { 200: Modules } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      return { modules: (await change(request, ws, { type: 'ChangeModules', companyId: ws.companyId, modules: request.body.modules })).modules };
    },
  });

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
      await change(request, ws, { type: 'RemoveMemberRole', companyId: ws.companyId, userId: request.params.userId, roleId: request.params.roleId });
      return reply.code(204).send(null);
    },
  });
}
