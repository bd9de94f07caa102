import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  findAccessibleWorkspace,
  getTeam,
  getUser,
  getWorkspace,
  isWorkspaceMember,
  listAccessibleWorkspaces,
  listWorkspaces,
  recentWorkspaces,
  rolesOfUser,
  workspaceAccess,
  workspaceMembers,
  type WorkspaceView,
} from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { eventMetadata } from '#shared/es/decider.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import type { AuthService } from '../auth/service.js';
import { OrgWriter } from '../commands.js';
import { callerOf, IdParams, intId, Role, RoleRef, Workspace } from '../http.js';
import { MODULE_KEYS } from '#events/organization/modules.js';
import { effectivePermissions } from '../roles/built-in.js';
import { assertMayGrantRoles, requireRoles } from '../roles/grant.js';
import { permissionsOf } from '../roles/permissions-of.js';
import { workspaceDecider, type WorkspaceCommand } from './decide.js';
import { workspaceStream, workspaceVisitStream, type Grantee, type WorkspaceVisitEvent } from '#events/organization/workspaces.js';
import { moduleList, WORKSPACE_VALIDATION_RULES, workspaceDescription, workspaceName, workspaceSettings } from './rules.js';

const tags = ['Workspaces'];

const TokenPair = z.object({ token: z.string(), expiresIn: z.string(), refreshToken: z.string() });
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

const toWorkspace = (w: WorkspaceView) => ({
  id: w.id,
  name: w.name,
  description: w.description,
  settings: w.settings,
  archived: w.archived,
  modules: w.modules,
  createdAt: w.createdAt,
});

/** Interface 4.4: workspaces, their modules, access grants, members and roles, recent visits. */
export async function workspaceRoutes(app: FastifyInstance, opts: { platform: Platform; auth: AuthService }): Promise<void> {
  const { platform, auth } = opts;
  const { db } = platform;
  const writer = new OrgWriter(platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** A workspace of the caller's company, or 404 (also for another company's id). */
  const workspaceOr404 = async (request: FastifyRequest, id: number): Promise<WorkspaceView> => {
    return found(await getWorkspace(db, callerOf(request).companyId, id), 'Workspace not found');
  };

  /** The caller's keys in `ws`: permissions are evaluated in the workspace a request acts on. */
  const keysIn = (request: FastifyRequest, ws: WorkspaceView): Promise<ReadonlySet<string>> =>
    request.workspace?.id === ws.id ? request.permissions() : permissionsOf(db, callerOf(request), ws);

  const requireKeyIn = async (request: FastifyRequest, ws: WorkspaceView, key: string): Promise<ReadonlySet<string>> => {
    const keys = await keysIn(request, ws);
    if (!keys.has(key)) throw new AppError('FORBIDDEN', `Missing permission ${key}`);
    return keys;
  };

  const canEnter = async (request: FastifyRequest, ws: WorkspaceView): Promise<boolean> =>
    (await findAccessibleWorkspace(db, callerOf(request), ws.id)) !== null;

  /** Readable by those who may enter it, and by holders of WORKSPACE_READ. */
  const requireReadable = async (request: FastifyRequest, ws: WorkspaceView): Promise<void> => {
    if (await canEnter(request, ws)) return;
    await requireKeyIn(request, ws, 'WORKSPACE_READ');
  };

  /** Runs a command on the workspace and answers from the read model. */
  const change = async (request: FastifyRequest, ws: WorkspaceView, command: WorkspaceCommand): Promise<WorkspaceView> => {
    const result = await writer.run(workspaceStream(ws.id), workspaceDecider, command, writer.context(request));
    await writer.settle(result);
    return workspaceOr404(request, ws.id);
  };

  const visit = async (request: FastifyRequest, workspaceId: number): Promise<void> => {
    const p = callerOf(request);
    // A visit is a fact with no rule to check: appended as-is to the user's own stream.
    const event: WorkspaceVisitEvent = { type: 'WorkspaceVisited', payload: { workspaceId, userId: p.userId } };
    const appended = await platform.store.append(workspaceVisitStream(p.userId), [{ ...event, metadata: eventMetadata({ ...writer.context(request), workspaceId }) }], 'any');
    await writer.settle(appended);
  };

  r.get('/workspaces', {
    schema: { tags, summary: 'All workspaces of the company (WORKSPACE_READ)', response: { 200: z.array(Workspace) } },
    handler: async (request) => {
      const keys = await request.permissions();
      if (!keys.has('WORKSPACE_READ')) throw new AppError('FORBIDDEN', 'Missing permission WORKSPACE_READ');
      return (await listWorkspaces(db, callerOf(request).companyId)).map(toWorkspace);
    },
  });

  r.get('/workspaces/accessible', {
    schema: { tags, summary: 'Exactly the workspaces you can enter: those that will not produce the 403 "Invalid X-Workspace-Id header"', response: { 200: z.array(Workspace) } },
    handler: async (request) => (await listAccessibleWorkspaces(db, callerOf(request))).map(toWorkspace),
  });

  r.get('/workspaces/recent', {
    schema: {
      tags,
      summary: 'Workspaces you visited (touch, switch), newest first, among those you can still enter',
      querystring: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
      response: { 200: z.array(Workspace.extend({ visitedAt: z.string() })) },
    },
    handler: async (request) => (await recentWorkspaces(db, callerOf(request), request.query.limit)).map((w) => ({ ...toWorkspace(w), visitedAt: w.visitedAt })),
  });

  r.get('/workspaces/validation-rules', {
    schema: { tags, summary: 'The rules applied when a workspace is created or changed' },
    handler: async (request) => {
      callerOf(request);
      return WORKSPACE_VALIDATION_RULES;
    },
  });

  r.post('/workspaces', {
    schema: {
      tags,
      summary: 'Create a workspace (WORKSPACE_CREATE); a creator who is not an administrator is granted access to it',
      body: z.object({ name: workspaceName, description: workspaceDescription.default(''), settings: workspaceSettings.default({}), modules: moduleList.optional() }),
      response: { 201: Workspace },
    },
    handler: async (request, reply) => {
      const keys = await request.permissions();
      if (!keys.has('WORKSPACE_CREATE')) throw new AppError('FORBIDDEN', 'Missing permission WORKSPACE_CREATE');
      const p = callerOf(request);
      const me = await rolesOfUser(db, p, null);
      const workspaceId = await allocateId(db, 'workspace');
      const ctx = { ...writer.context(request), workspaceId };
      const { name, description, settings } = request.body;
      await writer.claimName(`workspace-name:${p.companyId}`, name, workspaceId, 'Workspace', ctx);
      const result = await writer.run(
        workspaceStream(workspaceId),
        workspaceDecider,
        {
          type: 'CreateWorkspace',
          workspaceId,
          companyId: p.companyId,
          name,
          description,
          settings,
          modules: [...new Set(request.body.modules ?? MODULE_KEYS)],
          ...(me?.isAdmin ? {} : { grantCreator: p.userId }),
        },
        ctx,
      );
      await writer.settle(result);
      return reply.code(201).send(toWorkspace(await workspaceOr404(request, workspaceId)));
    },
  });

  r.get('/workspaces/:id', {
    schema: { tags, summary: 'One workspace (if you can enter it, or with WORKSPACE_READ)', params: IdParams, response: { 200: Workspace } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireReadable(request, ws);
      return toWorkspace(ws);
    },
  });

  r.put('/workspaces/:id', {
    schema: {
      tags,
      summary: 'Change name, description and settings (WORKSPACE_MANAGE; not while archived)',
      params: IdParams,
      body: z.object({ name: workspaceName.optional(), description: workspaceDescription.optional(), settings: workspaceSettings.optional() }),
      response: { 200: Workspace },
    },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      const p = callerOf(request);
      const { name, description, settings } = request.body;
      const ctx = writer.context(request);
      const result = await writer.renamed(`workspace-name:${p.companyId}`, 'Workspace', ws.id, ws.name, name, ctx, () =>
        writer.run(
          workspaceStream(ws.id),
          workspaceDecider,
          {
            type: 'UpdateWorkspace',
            companyId: p.companyId,
            ...(name !== undefined ? { name } : {}),
            ...(description !== undefined ? { description } : {}),
            ...(settings !== undefined ? { settings } : {}),
          },
          ctx,
        ),
      );
      await writer.settle(result);
      return toWorkspace(await workspaceOr404(request, ws.id));
    },
  });

  r.put('/workspaces/:id/archive', {
    schema: { tags, summary: 'Archive: the workspace becomes read-only (WORKSPACE_MANAGE)', params: IdParams, response: { 200: Workspace } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      return toWorkspace(await change(request, ws, { type: 'ArchiveWorkspace', companyId: ws.companyId }));
    },
  });

  r.put('/workspaces/:id/unarchive', {
    schema: { tags, summary: 'Restore an archived workspace (WORKSPACE_MANAGE)', params: IdParams, response: { 200: Workspace } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      return toWorkspace(await change(request, ws, { type: 'UnarchiveWorkspace', companyId: ws.companyId }));
    },
  });

  r.delete('/workspaces/:id', {
    schema: { tags, summary: 'Delete a workspace, archived or not; nobody can enter it any more (WORKSPACE_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      const ctx = writer.context(request);
      const result = await writer.run(workspaceStream(ws.id), workspaceDecider, { type: 'DeleteWorkspace', companyId: ws.companyId }, ctx);
      await writer.releaseName(`workspace-name:${ws.companyId}`, ws.name, ws.id, ctx);
      await writer.settle(result);
      return reply.code(204).send(null);
    },
  });

  r.post('/workspaces/:id/touch', {
    schema: { tags, summary: 'Mark the workspace as recently visited (if you can enter it)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const ws = await workspaceOr404(request, request.params.id);
      if (!(await canEnter(request, ws))) throw new AppError('NOT_FOUND', 'Workspace not found');
      await visit(request, ws.id);
      return reply.code(204).send(null);
    },
  });

  r.post('/workspaces/:id/switch', {
    schema: { tags, summary: 'Switch to the workspace: a token pair with it baked in, and a visit', params: IdParams, response: { 200: TokenPair } },
    handler: async (request) => {
      const p = callerOf(request);
      const ws = await workspaceOr404(request, request.params.id);
      if (!(await canEnter(request, ws))) throw new AppError('NOT_FOUND', 'Workspace not found');
      const pair = await auth.switchWorkspace({ userId: p.userId, companyId: p.companyId, issuedAtMs: p.issuedAtMs, ...(p.sid ? { sid: p.sid } : {}) }, ws.id);
      await visit(request, ws.id);
      return pair;
    },
  });

  r.get('/workspaces/:id/has-access', {
    schema: { tags, summary: 'Whether you can enter the workspace', params: IdParams, response: { 200: z.object({ workspaceId: z.number().int(), hasAccess: z.boolean() }) } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      return { workspaceId: ws.id, hasAccess: await canEnter(request, ws) };
    },
  });

  r.get('/workspaces/:id/my-roles', {
    schema: {
      tags,
      summary: 'Your roles there: company roles, and member roles in this workspace (while you can enter it)',
      params: IdParams,
      response: { 200: z.object({ workspaceId: z.number().int(), isAdmin: z.boolean(), companyRoles: z.array(Role), workspaceRoles: z.array(Role) }) },
    },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      const roles = found(await rolesOfUser(db, callerOf(request), (await canEnter(request, ws)) ? ws.id : null), 'User not found');
      const view = (x: { id: number; name: string; description: string; permissions: string[]; builtIn: boolean }) => ({ ...x, permissions: [...effectivePermissions(x)] });
      return { workspaceId: ws.id, isAdmin: roles.isAdmin, companyRoles: roles.companyRoles.map(view), workspaceRoles: roles.workspaceRoles.map(view) };
    },
  });

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
