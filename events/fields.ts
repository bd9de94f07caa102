import { z } from 'zod';

/**
 * The tenant an aggregate belongs to, recorded in its first event: the company and the workspace it
 * was created in. Spread into a payload where the two fields stood (`{ id, ...tenantScope, ... }`),
 * so the payload keeps its fields and their order.
 */
export const tenantScope = {
  companyId: z.number().int(),
  workspaceId: z.number().int(),
};
