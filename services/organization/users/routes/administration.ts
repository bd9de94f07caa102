import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, IdParams, intId, requestActor, User } from '../../http.js';
import { assertMayGrantRoles, requireRoles } from '../../roles/index.js';
import { password, tags, userGuards, type UsersOptions } from '../http.js';
import { replaceRoles, setAdmin, setUserStatus } from '../service.js';
import { eraseUser } from '../erase.js';
import { requirePermission } from '#shared/http/principal.js';
import { commandContext } from '#shared/es/index.js';

const Erasure = z
  .object({
    userId: z.number().int(),
    erasedAt: z.string().describe('When the person was erased (the first time, when erased before)'),
    readModels: z.enum(['done', 'rebuilding']).describe('Whether the read models that keep personal data hold the placeholders yet'),
    rewritten: z.array(z.string()).describe('Read models whose rows of the person were rewritten in place (they kept answering)'),
    rebuilt: z.array(z.string()).describe('Read models emptied and replayed'),
  })
  .meta({ id: 'Erasure' });

/** What an administrator sets on a user: company roles, status, administrator, password. */
export async function administrationRoutes(app: FastifyInstance, opts: UsersOptions): Promise<void> {
  const { platform, auth } = opts;
  const { managed, notSelf, changePassword, userOr404 } = userGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put('/users/:id/roles', {
    schema: {
      tags,
      summary: "Replace the user's company roles (USER_MANAGE; only roles whose keys you hold yourself can be added)",
      params: IdParams,
      body: z.object({ roleIds: z.array(intId).max(50) }),
      response: { 200: User },
    },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await managed(request, request.params.id, 'USER_MANAGE');
      const roles = await requireRoles(platform.db, p.companyId, request.body.roleIds);
      assertMayGrantRoles(await request.permissions(), roles.filter((role) => !user.roleIds.includes(role.id)));
      await replaceRoles(platform, commandContext(platform, requestActor(request)), user, roles.map((x) => x.id));
      return userOr404(p.companyId, user.id);
    },
  });

  r.put('/users/:id/status', {
    schema: {
      tags,
      summary: 'Activate or deactivate a user; a deactivated user cannot sign in and their tokens stop working at once (USER_MANAGE)',
      params: IdParams,
      body: z.object({ status: z.enum(['active', 'deactivated']) }),
      response: { 200: User },
    },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await managed(request, request.params.id, 'USER_MANAGE');
      notSelf(request, user.id, 'change the status of');
      await setUserStatus(platform, auth.revocations, commandContext(platform, requestActor(request)), user, request.body.status);
      return userOr404(p.companyId, user.id);
    },
  });

  r.patch('/users/:id/admin', {
    schema: {
      tags,
      summary: 'Grant or revoke company administrator (USER_ADMIN_MANAGE)',
      params: IdParams,
      body: z.object({ isAdmin: z.boolean() }),
      response: { 200: User },
    },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await managed(request, request.params.id, 'USER_ADMIN_MANAGE');
      if (!request.body.isAdmin) notSelf(request, user.id, 'revoke administrator from');
      await setAdmin(platform, commandContext(platform, requestActor(request)), user, request.body.isAdmin);
      return userOr404(p.companyId, user.id);
    },
  });

  r.post('/users/:id/erase', {
    schema: {
      tags,
      summary:
        "Erase a person: delete the user if still there, destroy the key their personal data in events is sealed with (names, addresses, notes then read as an erased person's everywhere), and rebuild the read models that keep it; 202 when those are still rebuilding (USER_MANAGE)",
      params: IdParams,
      response: { 200: Erasure, 202: Erasure },
    },
    handler: async (request, reply) => {
      const p = callerOf(request);
      await requirePermission(request, 'USER_MANAGE');
      notSelf(request, request.params.id, 'erase');
      const ctx = commandContext(platform, requestActor(request));
      const erased = await eraseUser(platform, auth.revocations, ctx, { companyId: p.companyId, userId: request.params.id }, opts.personalReadModels);
      return reply.code(erased.readModels === 'done' ? 200 : 202).send(erased);
    },
  });

  r.put('/users/:id/password', {
    schema: {
      tags,
      summary: "Set another user's password; their tokens stop working (USER_PASSWORD_MANAGE)",
      params: IdParams,
      body: z.object({ password }),
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const p = callerOf(request);
      const user = await managed(request, request.params.id, 'USER_PASSWORD_MANAGE');
      await changePassword(request, p.companyId, user.id, request.body.password, 'admin');
      return reply.code(204).send(null);
    },
  });
}
