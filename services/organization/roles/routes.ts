import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getRole, listRoles, usersWithRole, type RoleRow } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import { ALL_PERMISSION_KEYS, PERMISSIONS, type PermissionKey } from '#shared/permissions.js';
import type { Platform } from '../../platform.js';
import { callerOf, IdParams, PageQuery, pageSchema, requestActor, Role, User } from '../http.js';
import { effectivePermissions } from './built-in.js';
import { RoleWrites } from './service.js';
import { assertMayGrant } from './grant.js';
import { commandContext } from '#shared/es/index.js';

const tags = ['Roles and permissions'];
const permissionKey = z.enum(ALL_PERMISSION_KEYS as [PermissionKey, ...PermissionKey[]]);
const roleName = z.string().trim().min(2).max(64);
const description = z.string().trim().max(1000);

const toRole = (row: RoleRow) => ({ id: row.id, name: row.name, description: row.description, permissions: [...effectivePermissions(row)], builtIn: row.builtIn });

const MODULE_DESCRIPTIONS: Record<string, string> = {
  ORGANIZATION: 'Users, roles, teams, workspaces and the audit history',
  TMT: 'Test management',
  DF: 'Device testing',
  AUTORUNNER: 'Test engines',
  HEALTHCHECK: 'Health checks',
};

/** The caller's keys in the active workspace, sorted. */
async function myPermissions(request: FastifyRequest): Promise<string[]> {
  callerOf(request);
  return [...(await request.permissions())].sort();
}

export interface RolesOptions {
  platform: Platform;
}

/** Roles, the permission catalog, and the caller's keys. */
export async function roleRoutes(app: FastifyInstance, opts: RolesOptions): Promise<void> {
  const { platform } = opts;
  const { db } = platform;
  const roles = new RoleWrites(platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

  const roleOr404 = async (companyId: number, roleId: number): Promise<RoleRow> => {
    return found(await getRole(db, companyId, roleId), 'Role not found');
  };

  const Keys = z.array(z.string()).describe('Permission keys');
  r.get('/users/me/permissions', {
    schema: { tags: ['Users'], summary: 'Your permission keys in the active workspace (same as /permissions/me)', response: { 200: Keys } },
    handler: myPermissions,
  });
  r.get('/permissions/me', {
    schema: { tags, summary: 'Your permission keys in the active workspace (same as /users/me/permissions)', response: { 200: Keys } },
    handler: myPermissions,
  });

  r.get('/permissions', {
    schema: {
      tags,
      summary: 'The catalog of permission keys',
      response: { 200: z.array(z.object({ key: z.string(), module: z.string(), description: z.string() })) },
    },
    handler: async (request) => {
      callerOf(request);
      return PERMISSIONS.map((p) => ({ key: p.key, module: p.module, description: p.description }));
    },
  });

  r.get('/permissions/modules', {
    schema: {
      tags,
      summary: 'The permission keys grouped by module',
      response: { 200: z.array(z.object({ module: z.string(), description: z.string(), permissions: z.array(z.string()) })) },
    },
    handler: async (request) => {
      callerOf(request);
      const modules = [...new Set(PERMISSIONS.map((p) => p.module))];
      return modules.map((module) => ({
        module,
        description: MODULE_DESCRIPTIONS[module] ?? module,
        permissions: PERMISSIONS.filter((p) => p.module === module).map((p) => p.key),
      }));
    },
  });

  r.get('/roles', {
    schema: { tags, summary: 'Roles of the company, built-in and custom (ROLE_READ)', response: { 200: z.array(Role) } },
    handler: async (request) => {
      await requirePermission(request, 'ROLE_READ');
      return (await listRoles(db, callerOf(request).companyId)).map(toRole);
    },
  });

  r.post('/roles', {
    schema: {
      tags,
      summary: 'Create a custom role; names are unique per company, case-insensitive (ROLE_MANAGE; only keys you hold)',
      body: z.object({ name: roleName, description: description.default(''), permissions: z.array(permissionKey).max(ALL_PERMISSION_KEYS.length) }),
      response: { 201: Role },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'ROLE_MANAGE');
      const p = callerOf(request);
      assertMayGrant(await request.permissions(), request.body.permissions);
      const roleId = await roles.create(p.companyId, request.body, commandContext(platform, requestActor(request)));
      return reply.code(201).send(toRole(await roleOr404(p.companyId, roleId)));
    },
  });

  r.get('/roles/:id', {
    schema: { tags, summary: 'One role (ROLE_READ)', params: IdParams, response: { 200: Role } },
    handler: async (request) => {
      await requirePermission(request, 'ROLE_READ');
      return toRole(await roleOr404(callerOf(request).companyId, request.params.id));
    },
  });

  r.put('/roles/:id', {
    schema: {
      tags,
      summary: 'Change a custom role; built-in roles cannot be changed (ROLE_MANAGE; only keys you hold can be added)',
      params: IdParams,
      body: z.object({ name: roleName.optional(), description: description.optional(), permissions: z.array(permissionKey).max(ALL_PERMISSION_KEYS.length).optional() }),
      response: { 200: Role },
    },
    handler: async (request) => {
      await requirePermission(request, 'ROLE_MANAGE');
      const p = callerOf(request);
      const role = await roleOr404(p.companyId, request.params.id);
      if (role.builtIn) throw new AppError('BUILT_IN_ROLE', `The built-in role ${role.name} cannot be changed or deleted`);
      const { name, description: desc, permissions } = request.body;
      if (permissions) assertMayGrant(await request.permissions(), permissions.filter((k) => !role.permissions.includes(k)));
      const changes = { ...(name !== undefined ? { name } : {}), ...(desc !== undefined ? { description: desc } : {}), ...(permissions ? { permissions } : {}) };
      await roles.update(role, p.companyId, changes, commandContext(platform, requestActor(request)));
      return toRole(await roleOr404(p.companyId, role.id));
    },
  });

  r.delete('/roles/:id', {
    schema: {
      tags,
      summary: 'Delete a custom role; it is taken from every user and workspace member holding it (ROLE_MANAGE)',
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'ROLE_MANAGE');
      const p = callerOf(request);
      const role = await roleOr404(p.companyId, request.params.id);
      await roles.delete(role, p.companyId, commandContext(platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });

  r.get('/roles/:id/users', {
    schema: { tags, summary: 'Users holding the role company-wide, paged (ROLE_READ and USER_READ)', params: IdParams, querystring: PageQuery, response: { 200: pageSchema(User, 'RoleUserPage') } },
    handler: async (request) => {
      await requirePermission(request, 'ROLE_READ');
      await requirePermission(request, 'USER_READ');
      const p = callerOf(request);
      const role = await roleOr404(p.companyId, request.params.id);
      return usersWithRole(db, p.companyId, role.id, request.query.page, request.query.size);
    },
  });
}
