import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';

/**
 * SCIM provisioning tokens (docs/modules/scim.md): a company's directory (Okta, Entra ID, OneLogin…)
 * provisions users and teams at `/scim/v2` with `Authorization: Bearer scim_...`. Only the SHA-256 of a
 * token is ever stored.
 */
export const scimTokenEvents = defineEvents({
  ScimTokenCreated: z.object({
    tokenId: z.uuid(),
    companyId: z.number().int().positive(),
    name: z.string(),
    tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
    /** The first characters of the token, to recognise it in lists. */
    prefix: z.string(),
    createdBy: z.number().int().positive(),
    /** Company roles every user this token provisions is given. */
    roleIds: z.array(z.number().int().positive()).default([]),
    /** How its creator was signed in when they made it (tokens recorded before it was kept count as `password`). */
    signIn: z.enum(['password', 'sso']).optional(),
  }),
  ScimTokenRevoked: z.object({ tokenId: z.uuid(), revokedBy: z.number().int().positive() }),
});
export type ScimTokenEvent = EventOf<typeof scimTokenEvents>;
export const scimTokenStream = (tokenId: string): string => `scim-token-${tokenId}`;
