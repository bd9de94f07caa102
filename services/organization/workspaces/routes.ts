import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAccessibleWorkspaces, listWorkspaces, recentWorkspaces, rolesOfUser, type WorkspaceView } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { eventMetadata } from '#shared/es/decider.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import type { AuthService } from '../auth/service.js';
import { OrgWriter } from '../commands.js';
import { callerOf, IdParams, Role, Workspace } from '../http.js';
import { MODULE_KEYS } from '#events/organization/modules.js';
import { effectivePermissions } from '../roles/built-in.js';
import { workspaceDecider } from './decide.js';
import { workspaceGuards } from './guards.js';
import { workspaceStream, workspaceVisitStream, type WorkspaceVisitEvent } from '#events/organization/workspaces.js';
import { moduleList, WORKSPACE_VALIDATION_RULES, workspaceDescription, workspaceName, workspaceSettings } from './rules.js';

const tags = ['Workspaces'];

const TokenPair = z.object({ token: z.string(), expiresIn: z.string(), refreshToken: z.string() });

const toWorkspace = (w: WorkspaceView) => ({
  id: w.id,
  name: w.name,
  description: w.description,
  settings: w.settings,
  archived: w.archived,
  modules: w.modules,
  createdAt: w.createdAt,
});

/** Workspaces, their modules, access grants, members and roles, recent visits. */
export async function workspaceRoutes(app: FastifyInstance, opts: { platform: Platform; auth: AuthService }): Promise<void> {
  const { platform, auth } = opts;
  const { db } = platform;
  const writer = new OrgWriter(platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

  const { workspaceOr404, keysIn, requireKeyIn, canEnter, requireReadable, change } = workspaceGuards(platform, writer);

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
}
