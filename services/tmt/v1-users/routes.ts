import type { PermissionKey } from '#shared/permissions.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUser, listRoles, listUsers, type RoleRow, type UserView } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { requirePermission, requirePrincipal } from '#shared/http/principal.js';
import { assertMayGrantRoles } from '#services/organization/roles/grant.js';
import { deleteUser, inviterOf, inviteUser, replaceRoles, updateUser } from '#services/organization/users/index.js';
import { USERNAME_PATTERN } from '#services/organization/users/usernames.js';
import { requestActor } from '#services/organization/service.js';
import { User } from '#services/organization/http.js';
import type { Platform } from '../../platform.js';
import type { TmtDeps } from '../deps.js';
import { ok, okList, v1List, v1One, v1Paging } from '../http.js';
import { commandContext } from '#shared/es/index.js';

const tags = ['Test management: users'];

/** A user as `/v1` shows one: the organization's user with its roles by name. */
export const V1User = User.pick({ id: true, email: true, username: true, name: true, title: true, phone: true, status: true, isAdmin: true, createdAt: true, activatedAt: true, lastSignInAt: true })
  .extend({ roles: z.array(z.string()).describe('Names of the company roles the user holds') })
  .meta({ id: 'V1User' });

const toV1User = (u: UserView): z.infer<typeof V1User> => ({
  id: u.id,
  email: u.email,
  username: u.username,
  name: u.name,
  title: u.title,
  phone: u.phone,
  status: u.status,
  isAdmin: u.isAdmin,
  roles: u.roles.map((r) => r.name),
  createdAt: u.createdAt,
  activatedAt: u.activatedAt,
  lastSignInAt: u.lastSignInAt,
});

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const roleName = z.string().trim().min(1).max(100).describe('A role name of the company, such as "Member"');
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/**
 * `/v1/users`: the organization's users through the organization's own queries, commands and
 * permission keys (USER_READ, USER_INVITE, USER_MANAGE); roles are named instead of numbered.
 */
export async function v1UserRoutes(app: FastifyInstance, opts: { platform: Platform; deps: TmtDeps }): Promise<void> {
  const { platform, deps } = opts;
  const { db } = platform;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const userOr404 = async (companyId: number, userId: number): Promise<UserView> => {
    return found(await getUser(db, companyId, userId), 'User not found');
  };
  const requireSelfOr = async (request: FastifyRequest, userId: number, key: PermissionKey) => {
    if (requirePrincipal(request).userId !== userId) await requirePermission(request, key);
  };
  /** The company's role with this name (case-insensitive), or 400 UNKNOWN_ROLE. */
  const roleNamed = async (companyId: number, name: string): Promise<RoleRow> => {
    const role = (await listRoles(db, companyId)).find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!role) throw new AppError('UNKNOWN_ROLE', `There is no role named "${name}" in this company`, { details: [{ path: 'role', message: 'unknown role' }] });
    return role;
  };

  r.get('/v1/users', {
    schema: { tags, summary: 'Users of the company (USER_READ)', querystring: z.object(v1Paging), response: { 200: v1List(V1User) } },
    handler: async (request) => {
      await requirePermission(request, 'USER_READ');
      const { page, limit } = request.query;
      const found = await listUsers(db, requirePrincipal(request).companyId, { sortBy: 'id', sortDir: 'asc', page: page - 1, size: limit });
      return okList(found.content.map(toV1User), { page, limit }, found.totalElements);
    },
  });

  r.get('/v1/users/:id', {
    schema: { tags, summary: 'One user (USER_READ, or yourself)', params: IdParams, response: { 200: v1One(V1User) } },
    handler: async (request) => {
      const user = await userOr404(requirePrincipal(request).companyId, request.params.id);
      await requireSelfOr(request, user.id, 'USER_READ');
      return ok(toV1User(user));
    },
  });

  r.post('/v1/users/invite', {
    schema: {
      tags,
      summary: 'Invite by e-mail with a role name: a passive user and an activation mail (USER_INVITE; only roles whose keys you hold)',
      body: z.object({ email: z.email().max(254), role: roleName }),
      response: { 200: v1One(V1User), 201: v1One(V1User) },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'USER_INVITE');
      const companyId = requirePrincipal(request).companyId;
      const role = await roleNamed(companyId, request.body.role);
      const { userId, created } = await inviteUser(platform, await inviterOf(request), commandContext(platform, requestActor(request)), request.body.email.trim(), { roles: [role] });
      return reply.code(created ? 201 : 200).send(ok(toV1User(await userOr404(companyId, userId))));
    },
  });

  r.put('/v1/users/:id', {
    schema: {
      tags,
      summary: 'Change name, username, title, phone (yourself, or USER_MANAGE); role replaces the company roles with the named one (USER_MANAGE)',
      params: IdParams,
      body: z.object({
        name: z.string().trim().min(1).max(128).optional(),
        username: z.string().trim().regex(USERNAME_PATTERN, '2-64 letters, digits, dots, dashes or underscores').optional(),
        title: optionalText(128),
        phone: optionalText(64),
        role: roleName.optional(),
      }),
      response: { 200: v1One(V1User) },
    },
    handler: async (request) => {
      const companyId = requirePrincipal(request).companyId;
      const user = await userOr404(companyId, request.params.id);
      const { role: newRole, ...profile } = request.body;
      await requireSelfOr(request, user.id, 'USER_MANAGE');
      let role: RoleRow | null = null;
      if (newRole !== undefined) {
        await requirePermission(request, 'USER_MANAGE');
        role = await roleNamed(companyId, newRole);
        if (!user.roleIds.includes(role.id)) assertMayGrantRoles(await request.permissions(), [role]);
      }
      await updateUser(platform, commandContext(platform, requestActor(request)), user, profile);
      if (role) {
        await replaceRoles(platform, commandContext(platform, requestActor(request)), user, [role.id]);
      }
      return ok(toV1User(await userOr404(companyId, user.id)));
    },
  });

  r.delete('/v1/users/:id', {
    schema: {
      tags,
      summary: 'Delete a user; their tokens stop working (USER_MANAGE; not yourself)',
      params: IdParams,
      response: { 200: v1One(z.object({ id: z.number().int() })) },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_MANAGE');
      const p = requirePrincipal(request);
      const user = await userOr404(p.companyId, request.params.id);
      if (user.id === p.userId) throw new AppError('CONFLICT', 'You cannot delete your own account');
      await deleteUser(platform, deps.organization.auth.revocations, commandContext(platform, requestActor(request)), user);
      return ok({ id: user.id });
    },
  });
}
