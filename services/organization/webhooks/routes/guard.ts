import type { FastifyRequest } from 'fastify';
import { getWorkspace } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../../platform.js';
import { callerOf } from '../../http.js';
import { permissionsOf } from '../../roles/index.js';
import type { WebhookOwner } from '../service.js';

export const tags = ['Webhooks'];

/**
 * The workspace of the path as the owner of its webhooks: 404 for another company's workspace (and so
 * for every id under it), 403 without WORKSPACE_MANAGE there.
 */
export async function webhookOwner(platform: Platform, request: FastifyRequest, workspaceId: number): Promise<WebhookOwner & { userId: number }> {
  const caller = callerOf(request);
  const ws = found(await getWorkspace(platform.db, caller.companyId, workspaceId), 'Workspace not found');
  const keys = request.workspace?.id === ws.id ? await request.permissions() : await permissionsOf(platform.db, caller, ws);
  if (!keys.has('WORKSPACE_MANAGE')) throw new AppError('FORBIDDEN', 'Missing permission WORKSPACE_MANAGE');
  return { companyId: ws.companyId, workspaceId: ws.id, userId: caller.userId };
}
