import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { PermissionKey } from '../permissions.js';
import { requirePermission, requirePrincipal, requireWorkspace } from './principal.js';

/** `page` (0-based) and `size` (default 20, at most 200): every list of the platform (docs/api-conventions.md, "Paging"). */
export const paging = {
  page: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('0-based page'),
  size: z.coerce.number().int().min(1).max(200).default(20).describe('Page size, at most 200'),
};
export const PageQuery = z.object(paging);

/** A string id in a path (uuid-like): letters, digits, `_` and `-`, at most 128 characters. */
export const idParam = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'an id');

/** An integer id in a path (users, roles, teams, workspaces, companies): a positive 32-bit integer. */
export const intId = z.coerce.number().int().positive().max(2_147_483_647);
export const IdParams = z.object({ id: intId });

/** A query parameter that may be repeated (`?status=a&status=b`): always an array. */
export const multi = <T extends z.ZodType<string>>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item).max(100).optional());

/** `true` / `false` as a query parameter. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true').optional();

/** Who acts in a module: a user (or a credential acting for one) in a workspace. */
export interface WorkspaceCaller {
  userId: number;
  companyId: number;
  workspaceId: number;
}

/** The caller in the active workspace, holding `permission` there; 401/400/403 otherwise. */
export async function workspaceCaller(request: FastifyRequest, permission: PermissionKey): Promise<WorkspaceCaller> {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  await requirePermission(request, permission);
  return { userId: principal.userId, companyId: workspace.companyId, workspaceId: workspace.id };
}

/** Maps a zod failure of input validated by hand (multipart, a preprocessed body) to the catalog's 400. */
export function validationError(error: z.ZodError): AppError {
  return new AppError('VALIDATION_FAILED', 'Request validation failed', {
    details: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}
