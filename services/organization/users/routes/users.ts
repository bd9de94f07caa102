import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUserByEmail, listUsers, userFilterOptions } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import { callerOf, IdParams, intId, PageQuery, pageSchema, requestActor, User } from '../../http.js';
import { definedOnly, deleteUser, updateUser } from '../service.js';
import { tags, userGuards, UserUpdate, type UsersOptions } from '../http.js';
import { commandContext } from '#shared/es/index.js';

const UserListQuery = PageQuery.extend({
  search: z.string().trim().max(128).optional().describe('Part of the name, e-mail or username'),
  status: z.enum(['passive', 'active', 'deactivated']).optional(),
  roleId: intId.optional(),
  teamId: intId.optional(),
  isAdmin: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  sortBy: z.enum(['id', 'name', 'email', 'username', 'createdAt', 'lastSignInAt']).default('id'),
  sortDir: z.enum(['asc', 'desc']).default('asc'),
});

const Count = z.object({ count: z.number().int() });

/** The company's users: the list and its filters, one user, profile changes, company membership, deletion. */
export async function userRoutes(app: FastifyInstance, opts: UsersOptions): Promise<void> {
  const { platform, auth } = opts;
  const { db } = platform;
  const { userOr404, selfOr, managed, notSelf, change } = userGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/users', {
    schema: { tags, summary: 'Users of the company, filtered and paged (USER_READ)', querystring: UserListQuery, response: { 200: pageSchema(User, 'UserPage') } },
    handler: async (request) => {
      await requirePermission(request, 'USER_READ');
      const q = request.query;
      return listUsers(db, callerOf(request).companyId, {
        ...(q.search ? { search: q.search } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.roleId !== undefined ? { roleId: q.roleId } : {}),
        ...(q.teamId !== undefined ? { teamId: q.teamId } : {}),
        ...(q.isAdmin !== undefined ? { isAdmin: q.isAdmin } : {}),
        sortBy: q.sortBy,
        sortDir: q.sortDir,
        page: q.page,
        size: q.size,
      });
    },
  });

  r.get('/users/filter-options', {
    schema: {
      tags,
      summary: 'Values the user list can be filtered by, with counts (USER_READ)',
      response: {
        200: z.object({
          statuses: z.array(Count.extend({ value: z.string() })),
          roles: z.array(Count.extend({ id: z.number().int(), name: z.string() })),
          teams: z.array(Count.extend({ id: z.number().int(), name: z.string() })),
          isAdmin: z.array(Count.extend({ value: z.boolean() })),
        }),
      },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_READ');
      return userFilterOptions(db, callerOf(request).companyId);
    },
  });

  r.get('/users/email', {
    schema: { tags, summary: 'Look a user of the company up by e-mail address (USER_READ)', querystring: z.object({ email: z.email().max(254) }), response: { 200: User } },
    handler: async (request) => {
      await requirePermission(request, 'USER_READ');
      return found(await getUserByEmail(db, callerOf(request).companyId, request.query.email), 'User not found');
    },
  });

  r.get('/users/:id', {
    schema: { tags, summary: 'One user (USER_READ, or yourself)', params: IdParams, response: { 200: User } },
    handler: async (request) => selfOr(request, request.params.id, 'USER_READ'),
  });

  r.put('/users/:id', {
    schema: { tags, summary: 'Update name, username, title, phone (yourself, or USER_MANAGE)', params: IdParams, body: UserUpdate, response: { 200: User } },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await selfOr(request, request.params.id, 'USER_MANAGE');
      await updateUser(platform, commandContext(platform, requestActor(request)), user, request.body);
      return userOr404(p.companyId, user.id);
    },
  });

  r.put('/users/:id/profile', {
    schema: {
      tags,
      summary: 'Update profile fields: name, title, phone (yourself, or USER_MANAGE)',
      params: IdParams,
      body: UserUpdate.omit({ username: true }),
      response: { 200: User },
    },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await selfOr(request, request.params.id, 'USER_MANAGE');
      return change(request, user, { type: 'UpdateUser', companyId: p.companyId, changes: definedOnly(request.body) });
    },
  });

  r.put('/users/:id/companies', {
    schema: {
      tags,
      summary:
        'Change company membership (USER_MANAGE). A user belongs to exactly one company and tenants are walled off, so the only membership a caller can set is their own company',
      params: IdParams,
      body: z.object({ companyId: intId }),
      response: { 200: User },
    },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await managed(request, request.params.id, 'USER_MANAGE');
      if (request.body.companyId !== p.companyId) throw new AppError('NOT_FOUND', 'Company not found');
      return user;
    },
  });

  r.delete('/users/:id', {
    schema: { tags, summary: 'Delete a user; their tokens stop working and the e-mail address can be invited again (USER_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const user = await managed(request, request.params.id, 'USER_MANAGE');
      notSelf(request, user.id, 'delete');
      await deleteUser(platform, auth.revocations, commandContext(platform, requestActor(request)), user);
      return reply.code(204).send(null);
    },
  });
}
