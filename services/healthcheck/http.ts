import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requirePermission, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';

/** `page` (0-based) and `size` (default 20, at most 200), as every list of the platform. */
export const paging = {
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(200).default(20),
};

export const idParam = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'an id');

/** Who acts: a user (or a health-check API key acting for one) in a workspace. */
export interface Caller {
  userId: number;
  companyId: number;
  workspaceId: number;
}

/** The caller, holding `permission` in the active workspace. */
export async function caller(request: FastifyRequest, permission: 'HEALTHCHECK_READ' | 'HEALTHCHECK_MANAGE'): Promise<Caller> {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  await requirePermission(request, permission);
  return { userId: principal.userId, companyId: workspace.companyId, workspaceId: workspace.id };
}
