import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listAccessibleWorkspaces, listWorkspaces, rolesOfUser } from '#projections/org-directory/index.js';
import { AppError } from '#shared/errors.js';
import { MODULE_KEYS } from '#events/organization/modules.js';
import { callerOf, IdParams, requestActor, Workspace } from '../../http.js';
import { WorkspaceWrites } from '../service.js';
import { tags, toWorkspace, workspaceGuards, type WorkspacesOptions } from '../guards.js';
import { moduleList, WORKSPACE_VALIDATION_RULES, workspaceDescription, workspaceName, workspaceSettings } from '../rules.js';
import { commandContext } from '#shared/es/index.js';

/** The company's workspaces: list, create, read, change, archive and unarchive, delete; the rules they follow. */
export async function workspaceRoutes(app: FastifyInstance, opts: WorkspacesOptions): Promise<void> {
  const { db } = opts.platform;
  const { workspaceOr404, requireKeyIn, requireReadable, change } = workspaceGuards(opts);
  const workspaces = new WorkspaceWrites(opts.platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

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
      const { name, description, settings } = request.body;
      const modules = [...new Set(request.body.modules ?? MODULE_KEYS)];
      const workspaceId = await workspaces.create(p.companyId, { name, description, settings, modules, ...(me?.isAdmin ? {} : { grantCreator: p.userId }) }, commandContext(opts.platform, requestActor(request)));
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
      const changes = { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}), ...(settings !== undefined ? { settings } : {}) };
      await workspaces.update(ws, changes, commandContext(opts.platform, requestActor(request)));
      return toWorkspace(await workspaceOr404(request, ws.id));
    },
  });

  const lifecycle = [
    ['archive', 'ArchiveWorkspace', 'Archive: the workspace becomes read-only (WORKSPACE_MANAGE)'],
    ['unarchive', 'UnarchiveWorkspace', 'Restore an archived workspace (WORKSPACE_MANAGE)'],
  ] as const;
  for (const [path, type, summary] of lifecycle) {
    r.put(`/workspaces/:id/${path}`, {
      schema: { tags, summary, params: IdParams, response: { 200: Workspace } },
      handler: async (request) => {
        const ws = await workspaceOr404(request, request.params.id);
        await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
        return toWorkspace(await change(request, ws, { type, companyId: ws.companyId }));
      },
    });
  }

  r.delete('/workspaces/:id', {
    schema: { tags, summary: 'Delete a workspace, archived or not; nobody can enter it any more (WORKSPACE_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
      await workspaces.delete(ws, commandContext(opts.platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });
}
