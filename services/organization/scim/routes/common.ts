import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CommandContext } from '#shared/es/decider.js';
import type { Platform } from '../../../platform.js';
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

/** The caller of a SCIM request (its token, or 401), the base of resource locations, and the events' metadata. */
export async function scimContext(request: FastifyRequest, scim: ScimService): Promise<{ caller: ScimCaller; base: string; ctx: CommandContext }> {
  const caller = await scim.verify(request.headers.authorization);
  const base = `${request.protocol}://${request.host}/scim/v2`;
  return { caller, base, ctx: scim.context(request, caller) };
}
