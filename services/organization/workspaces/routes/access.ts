import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getTeam, getUser, workspaceAccess, type WorkspaceView } from '#projections/org-directory/index.js';
import { AppError } from '#shared/errors.js';
import type { Grantee } from '#events/organization/workspaces.js';
import { commandContext } from '#shared/es/index.js';
import { callerOf, IdParams, intId, requestActor } from '../../http.js';
import { tags, workspaceGuards, type WorkspacesOptions } from '../guards.js';
import { WorkspaceWrites } from '../service.js';

const Access = z
  .object({
    teams: z.array(z.object({ id: z.number().int(), name: z.string() })),
    users: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
  })
  .meta({ id: 'WorkspaceAccess' });

/** One kind of grantee as the access routes name it: its collection, the name of its id, and its grant. */
interface GranteeKind<K extends string> {
  path: string;
  key: K;
  of(id: number): Grantee;
  grantSummary: string;
  revokeSummary: string;
}

/** Who may enter a workspace by grant: teams and users. */
export async function accessRoutes(app: FastifyInstance, opts: WorkspacesOptions): Promise<void> {
  const { db } = opts.platform;
  const { workspaceOr404, requireKeyIn, change } = workspaceGuards(opts);
  const writes = new WorkspaceWrites(opts.platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/workspaces/:id/access', {
    schema: { tags, summary: 'Current team and user grants (WORKSPACE_READ)', params: IdParams, response: { 200: Access } },
    handler: async (request) => {
      const ws = await workspaceOr404(request, request.params.id);
      await requireKeyIn(request, ws, 'WORKSPACE_READ');
      return workspaceAccess(db, ws.id);
    },
  });

  /** Grants (or revokes) a team's or user's access to a workspace of the caller's company (WORKSPACE_MANAGE). */
  const grant = async (request: FastifyRequest, workspaceId: number, grantee: Grantee, revoke: boolean): Promise<WorkspaceView> => {
    const ws = await workspaceOr404(request, workspaceId);
    await requireKeyIn(request, ws, 'WORKSPACE_MANAGE');
    const companyId = callerOf(request).companyId;
    if (grantee.kind === 'team' && !(await getTeam(db, companyId, grantee.teamId))) throw new AppError('NOT_FOUND', 'Team not found');
    if (grantee.kind === 'user' && !(await getUser(db, companyId, grantee.userId))) throw new AppError('NOT_FOUND', 'User not found');
    if (revoke) await writes.revokeAccess(ws, grantee, commandContext(opts.platform, requestActor(request)));
    else await change(request, ws, { type: 'GrantAccess', companyId, grantee });
    return ws;
  };

  /** `POST .../access/<teams|users>` grants, `DELETE .../access/<teams|users>/:<id>` revokes: alike for both kinds of grantee. */
  const granteeRoutes = <K extends string>(kind: GranteeKind<K>) => {
    const GranteeId = z.object({ [kind.key]: intId } as Record<K, typeof intId>);
    r.post(`/workspaces/:id/access/${kind.path}`, {
      schema: { tags, summary: kind.grantSummary, params: IdParams, body: GranteeId, response: { 200: Access } },
      handler: async (request) => {
        const ws = await grant(request, request.params.id, kind.of((request.body as Record<K, number>)[kind.key]), false);
        return workspaceAccess(db, ws.id);
      },
    });
    r.delete(`/workspaces/:id/access/${kind.path}/:${kind.key}`, {
      schema: { tags, summary: kind.revokeSummary, params: IdParams.extend(GranteeId.shape), response: { 204: z.null() } },
      handler: async (request, reply) => {
        const params = request.params as { id: number } & Record<K, number>;
        await grant(request, params.id, kind.of(params[kind.key]), true);
        return reply.code(204).send(null);
      },
    });
  };

  granteeRoutes({
    path: 'teams',
    key: 'teamId',
    of: (teamId) => ({ kind: 'team', teamId }),
    grantSummary: 'Grant a team access (WORKSPACE_MANAGE)',
    revokeSummary: "Revoke a team's access (WORKSPACE_MANAGE)",
  });
  granteeRoutes({
    path: 'users',
    key: 'userId',
    of: (userId) => ({ kind: 'user', userId }),
    grantSummary: 'Grant a user access (WORKSPACE_MANAGE)',
    revokeSummary: "Revoke a user's direct access (WORKSPACE_MANAGE)",
  });
}
