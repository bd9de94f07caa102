import type { FastifyRequest } from 'fastify';
import { workspaceCaller, type WorkspaceCaller } from '#shared/http/params.js';

export { idParam, paging } from '#shared/http/params.js';

export type Caller = WorkspaceCaller;

/** The caller, holding `permission` in the active workspace. */
/** The caller, holding `permission` in the active workspace. */
export const caller = (request: FastifyRequest, permission: 'HEALTHCHECK_READ' | 'HEALTHCHECK_MANAGE'): Promise<Caller> =>
  workspaceCaller(request, permission);
