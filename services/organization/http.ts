import type { FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import { AppError } from '#shared/errors.js';
import { requirePrincipal, type Principal } from '#shared/http/principal.js';

/** Integer ids of users, roles, teams, workspaces (decisions.md, "Identity"). */
export const intId = z.coerce.number().int().positive().max(2_147_483_647);
export const IdParams = z.object({ id: intId });

/** Paging of the organization's long lists, the same shape as the `/df/api` lists (decisions.md). */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('0-based page'),
  size: z.coerce.number().int().min(1).max(200).default(20).describe('Page size, at most 200'),
});

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
export async function holds(request: FastifyRequest, key: string): Promise<boolean> {
  requirePrincipal(request);
  return (await request.permissions()).has(key);
}

/** The request's own user, or one the caller may act on with `key`; 403 otherwise. */
export async function requireSelfOr(request: FastifyRequest, userId: number, key: string): Promise<void> {
  if (callerOf(request).userId === userId) return;
  if (!(await holds(request, key))) throw new AppError('FORBIDDEN', `Missing permission ${key}`);
}

/** Maps a zod failure of a body validated by hand (multipart) to the catalog's 400. */
export function validationError(error: z.ZodError): AppError {
  return new AppError('VALIDATION_FAILED', 'Request validation failed', {
    details: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}
