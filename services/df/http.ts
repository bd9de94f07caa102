import { pageSchema } from '#shared/paging.js';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requirePermission, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';
import type { Caller } from './sessions/service.js';

/** A query parameter that may be repeated (`?status=a&status=b`): always an array. */
export const multi = <T extends z.ZodType<string>>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(100).optional());

/** `true` / `false` as a query parameter. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true').optional();

/** `page` (0-based) and `size` (default 20, at most 200), decisions.md "Paging". */
export const paging = {
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(200).default(20),
  sortDir: z.enum(['asc', 'desc']).optional(),
};

/** A page of results as every `/df/api` list answers. */
export const pageOf = <T extends z.ZodType>(item: T) => pageSchema(item);

/** The caller: a user (or an API key acting for one) in a workspace, holding `permission`. */
export async function caller(request: FastifyRequest, permission: string): Promise<Caller> {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  await requirePermission(request, permission);
  return { userId: principal.userId, companyId: workspace.companyId, workspaceId: workspace.id };
}

/** The owner drives a session with `df:session:create`; anyone else needs `df:session:manage`. */
export async function requireSessionControl(request: FastifyRequest, session: { ownerId: number }): Promise<void> {
  const principal = requirePrincipal(request);
  await requirePermission(request, principal.userId === session.ownerId ? 'df:session:create' : 'df:session:manage');
}

export const idParam = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'an id');
