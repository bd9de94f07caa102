import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SIGN_IN_METHODS } from '#events/organization/users.js';
import type { SignInSessionView } from '#projections/sign-in-sessions/index.js';
import { AppError } from '#shared/errors.js';
import type { CommandActor } from '#shared/es/index.js';
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

export const SignInSession = z
  .object({
    id: z.string().describe('The session id: the `sid` claim of its access tokens'),
    current: z.boolean().describe('Whether the token of this request belongs to it'),
    userAgent: z.string().nullable().describe('User agent of the sign-in'),
    address: z.string().nullable().describe('Client address of the sign-in'),
    createdAt: z.string().describe('When it began (sign-in or sign-up)'),
    lastUsedAt: z.string().describe('Its latest use by a request or a refresh, to about a minute'),
    lastAddress: z.string().nullable().describe('Client address of that use'),
    expiresAt: z.string().describe('When its refresh tokens stop working, whatever happens'),
    method: z.enum(SIGN_IN_METHODS).describe('How it began: `password` (or sign-up) or `sso` (an identity provider)'),
  })
  .meta({ id: 'SignInSession' });

/** A session as the API shows it. */
export function sessionView(s: SignInSessionView, currentSid: string | undefined): z.output<typeof SignInSession> {
  return {
    id: s.id,
    current: s.id === currentSid,
    userAgent: s.userAgent,
    address: s.address,
    createdAt: s.startedAt,
    lastUsedAt: s.lastUsedAt,
    lastAddress: s.lastAddress,
    expiresAt: s.expiresAt,
    method: s.method,
  };
}

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

/**
 * Who a request's commands act for: the signed-in principal (or `actor`'s ids, when given) in their
 * company and active workspace. `commandContext(platform, requestActor(request))` adds the time and the
 * request's id as the correlation id.
 */
export function requestActor(request: FastifyRequest, actor: { userId?: number | null; companyId?: number | null } = {}): CommandActor {
  const p = request.principal ?? null;
  return {
    actorId: actor.userId !== undefined ? actor.userId : (p?.userId ?? null),
    companyId: actor.companyId !== undefined ? actor.companyId : (p?.companyId ?? null),
    workspaceId: request.workspace?.id ?? null,
  };
}
