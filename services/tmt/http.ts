import type { FastifyRequest } from 'fastify';
import type { PermissionKey } from '#shared/permissions.js';
import { z } from 'zod';
import type { CommandActor } from '#shared/es/index.js';
import { requirePermission, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';

/** The tenant every `/v1` read and write is walled into: one company, one workspace. */
export interface TmtScope {
  companyId: number;
  workspaceId: number;
}

import type { TmtActor } from '#events/tmt/test-sessions.js';

export type { TmtActor };

/** A write's scope and actor. */
export interface TmtWriteScope extends TmtScope {
  actor: TmtActor;
}

/** `actorId` of event metadata: the user id, or `engine:<id>`. */
export const actorId = (actor: TmtActor): number | string => ('userId' in actor ? actor.userId : `engine:${actor.engineId}`);

/** Who a test-management write acts for: the caller (a user or a test engine) in its company and workspace. */
export const writeActor = (scope: TmtWriteScope): CommandActor => ({ actorId: actorId(scope.actor), companyId: scope.companyId, workspaceId: scope.workspaceId });

/** `page` (1-based) and `limit` (default 20, at most 100), docs/api-conventions.md "Paging" for `/v1`. */
export const v1Paging = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).describe('1-based page'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, at most 100'),
};

export interface V1Paging {
  page: number;
  limit: number;
}

/** One record in the `/v1` envelope. */
export const v1One = <T extends z.ZodType>(item: T) => z.object({ success: z.literal(true), data: item });

/** A page of records in the `/v1` envelope. */
export const v1List = <T extends z.ZodType>(item: T) =>
  z.object({
    success: z.literal(true),
    data: z.array(item),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
  });

export const ok = <T>(data: T) => ({ success: true as const, data });

export const okList = <T>(data: T[], paging: V1Paging, total: number) => ({
  success: true as const,
  data,
  pagination: { page: paging.page, limit: paging.limit, total },
});

/** UUID ids of projects, test cases and sessions. */
export const uuid = z.uuid();
export const UuidParams = z.object({ id: uuid });

/** The caller of a test-management route: a principal in a workspace holding `permission`. */
export async function tmtCaller(request: FastifyRequest, permission: 'TMT_READ' | 'TMT_WRITE' | 'TMT_DELETE'): Promise<TmtWriteScope> {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  await requirePermission(request, permission);
  return { companyId: workspace.companyId, workspaceId: workspace.id, actor: { userId: principal.userId } };
}

/** The caller of a company-wide tool (the company's user groups): a principal in a workspace holding `permission`. */
export async function companyCaller(request: FastifyRequest, permission: PermissionKey): Promise<{ userId: number; companyId: number; workspaceId: number }> {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  await requirePermission(request, permission);
  return { userId: principal.userId, companyId: principal.companyId, workspaceId: workspace.id };
}
