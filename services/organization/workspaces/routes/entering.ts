import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recentWorkspaces, rolesOfUser } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { commandContext, eventMetadata } from '#shared/es/index.js';
import { workspaceVisitStream, type WorkspaceVisitEvent } from '#events/organization/workspaces.js';
import { callerOf, IdParams, requestActor, Role, Workspace } from '../../http.js';
import { effectivePermissions } from '../../roles/index.js';
import { tags, toWorkspace, workspaceGuards, type WorkspacesOptions } from '../guards.js';

const TokenPair = z.object({ token: z.string(), expiresIn: z.string(), refreshToken: z.string() });

/** Entering workspaces: whether you may, your roles there, switching, and the recent visits. */
export async function enteringRoutes(app: FastifyInstance, opts: WorkspacesOptions): Promise<void> {
  const { platform, auth } = opts;
  const { db } = platform;
  const { workspaces, workspaceOr404, canEnter } = workspaceGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  const visit = async (request: FastifyRequest, workspaceId: number): Promise<void> => {
    const p = callerOf(request);
    // A visit is a fact with no rule to check: appended as-is to the user's own stream.
    const event: WorkspaceVisitEvent = { type: 'WorkspaceVisited', payload: { workspaceId, userId: p.userId } };
    const appended = await platform.store.append(workspaceVisitStream(p.userId), [{ ...event, metadata: eventMetadata({ ...commandContext(platform, requestActor(request)), workspaceId }) }], 'any');
    await workspaces.settle(appended);
  };

  r.get('/workspaces/recent', {
    schema: {
      tags,
      summary: 'Workspaces you visited (touch, switch), newest first, among those you can still enter',
      querystring: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
      response: { 200: z.array(Workspace.extend({ visitedAt: z.string() })) },
    },
    handler: async (request) => (await recentWorkspaces(db, callerOf(request), request.query.limit)).map((w) => ({ ...toWorkspace(w), visitedAt: w.visitedAt })),
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
