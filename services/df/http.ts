import { pageSchema } from '#shared/paging.js';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idParam, multi, paging as sharedPaging, queryBoolean, workspaceCaller } from '#shared/http/params.js';
import { requirePermission, requirePrincipal } from '#shared/http/principal.js';
import type { PermissionKey } from '#shared/permissions.js';
import { AppError } from '#shared/errors.js';

/** Who acts on the device module: a user (or an API key acting for one) in a workspace of a company. */
export interface Caller {
  userId: number;
  companyId: number;
  workspaceId: number;
}

/** The platform's paging, plus the sort direction of the `/df/api` lists. */
export const paging = { ...sharedPaging, sortDir: z.enum(['asc', 'desc']).optional() };

/** A page of results as every `/df/api` list answers. */
export const pageOf = <T extends z.ZodType>(item: T) => pageSchema(item);

/** The caller: a user (or an API key acting for one) in a workspace, holding `permission`. */
export const caller = (request: FastifyRequest, permission: PermissionKey): Promise<Caller> => workspaceCaller(request, permission);

/**
 * How a route finds one thing of the caller's workspace by its id: the caller, holding `permission`,
 * and under `key` what `get` answers for them (its 404 when the thing is not theirs to see).
 */
export function workspaceLookup<K extends string, T>(key: K, permission: PermissionKey, get: (c: Caller, id: string) => Promise<T>) {
  return async (request: FastifyRequest, id: string) => {
    const c = await caller(request, permission);
    return { c, [key]: await get(c, id) } as { c: Caller } & { [P in K]: T };
  };
}

/** The answer of a route that deletes or revokes: 204 with no body, once `done` (the change) has been made. */
export async function noContent(reply: { code(statusCode: 204): unknown }, done: Promise<unknown>): Promise<null> {
  await done;
  reply.code(204);
  return null;
}

/** The owner drives a session with `df:session:create`; anyone else needs `df:session:manage`. */
export async function requireSessionControl(request: FastifyRequest, session: { ownerId: number }): Promise<void> {
  const principal = requirePrincipal(request);
  await requirePermission(request, principal.userId === session.ownerId ? 'df:session:create' : 'df:session:manage');
}

/** Sharing a session (invitations, disconnecting its viewers): its owner with `df:session:share`, anyone else with `df:session:manage`. */
export async function requireSessionShare(request: FastifyRequest, session: { ownerId: number }): Promise<void> {
  const principal = requirePrincipal(request);
  const keys = await request.permissions();
  if (keys.has('df:session:manage') || (principal.userId === session.ownerId && keys.has('df:session:share'))) return;
  throw new AppError('FORBIDDEN', principal.userId === session.ownerId ? 'Missing permission df:session:share' : "Only the session's owner (with df:session:share) or a holder of df:session:manage can share it");
}

export { idParam, multi, queryBoolean };
