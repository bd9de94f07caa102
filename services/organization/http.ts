import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { requirePrincipal, type Principal } from '#shared/http/principal.js';
import type { PermissionKey } from '#shared/permissions.js';

export { IdParams, intId, PageQuery } from '#shared/http/params.js';

export { pageSchema } from '#shared/paging.js';

export const Role = z
  .object({ id: z.number().int(), name: z.string(), description: z.string(), permissions: z.array(z.string()), builtIn: z.boolean() })
  .meta({ id: 'Role' });

export const RoleRef = z.object({ id: z.number().int(), name: z.string() });

export const User = z
  .object({
    id: z.number().int(),
    email: z.string(),
    username: z.string(),
    name: z.string(),
    title: z.string().nullable(),
    phone: z.string().nullable(),
    status: z.enum(['passive', 'active', 'deactivated']),
    isAdmin: z.boolean(),
    roleIds: z.array(z.number().int()),
    roles: z.array(RoleRef),
    companyId: z.number().int(),
    hasProfileImage: z.boolean(),
    createdAt: z.string(),
    activatedAt: z.string().nullable(),
    lastSignInAt: z.string().nullable(),
  })
  .meta({ id: 'User' });

export const Team = z
  .object({ id: z.number().int(), name: z.string(), description: z.string(), memberIds: z.array(z.number().int()) })
  .meta({ id: 'Team' });

export const Workspace = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    settings: z.record(z.string(), z.unknown()),
    archived: z.boolean(),
    modules: z.array(z.string()),
    createdAt: z.string(),
  })
  .meta({ id: 'Workspace' });

/** The caller as the organization's commands and queries need it. */
export function callerOf(request: FastifyRequest): Principal {
  return requirePrincipal(request);
}

/** True when the caller holds `key` in the active workspace. */
export async function holds(request: FastifyRequest, key: PermissionKey): Promise<boolean> {
  requirePrincipal(request);
  return (await request.permissions()).has(key);
}

/** The request's own user, or one the caller may act on with `key`; 403 otherwise. */
export async function requireSelfOr(request: FastifyRequest, userId: number, key: PermissionKey): Promise<void> {
  if (callerOf(request).userId === userId) return;
  if (!(await holds(request, key))) throw new AppError('FORBIDDEN', `Missing permission ${key}`);
}

export { validationError } from '#shared/http/params.js';
