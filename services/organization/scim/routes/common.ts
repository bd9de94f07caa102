import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { commandContext, type CommandContext } from '#shared/es/index.js';
import type { Platform } from '../../../platform.js';
import { requestActor } from '../../http.js';
import type { ScimCaller, ScimService } from '../service.js';

export interface ScimProtocolOptions {
  platform: Platform;
  scim: ScimService;
}

export const ListQuery = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.coerce.number().int().min(1).optional(),
  count: z.coerce.number().int().min(0).optional(),
});

export const ResourceParams = z.object({ id: z.string().min(1).max(64) });

/** A SCIM resource or PatchOp: read field by field by the protocol module (directories send extensions freely). */
export const ResourceBody = z.looseObject({});

/**
 * The caller of a SCIM request (its token, or 401), the base of resource locations, and the context of
 * the commands it causes: no user acts; the token's company and the request id.
 */
export async function scimContext(request: FastifyRequest, opts: ScimProtocolOptions): Promise<{ caller: ScimCaller; base: string; ctx: CommandContext }> {
  const caller = await opts.scim.verify(request.headers.authorization);
  const base = `${request.protocol}://${request.host}/scim/v2`;
  return { caller, base, ctx: commandContext(opts.platform, requestActor(request, { userId: null, companyId: caller.companyId })) };
}
