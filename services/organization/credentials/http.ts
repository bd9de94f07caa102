import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CredentialScopeFilter } from '#projections/org-credentials/index.js';
import { RateLimit } from '#events/organization/credentials.js';
import { forbidden } from '#shared/errors.js';
import type { Decider, DomainEvent } from '#shared/es/decider.js';
import { CREDENTIAL_SCOPES, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { OrgWriter } from '../service.js';
import type { CredentialService } from './service.js';

// The credentials routes' vocabulary: their options, schemas, who sees which credentials, how they write.

export interface CredentialsOptions {
  platform: Platform;
  credentials: CredentialService;
}

/** The permission to see and revoke other users' keys and clients in the workspace. */
export const MANAGE_KEY = 'API_KEY_MANAGE';

export const Scope = z.enum(CREDENTIAL_SCOPES);
export const ScopeList = z
  .array(Scope)
  .min(1)
  .max(CREDENTIAL_SCOPES.length * 4)
  .transform((s) => CREDENTIAL_SCOPES.filter((x) => s.includes(x)))
  .describe('What it may do on /v1: read (GET, HEAD), write (POST, PUT, PATCH), delete (DELETE), admin (all)');
export const Name = z.string().trim().min(1).max(100);
export const IdParams = z.object({ id: z.uuid() });
export const RateBudget = RateLimit.describe(
  `Requests per rate-limit window (RATE_LIMIT_WINDOW, a minute by default) this credential may make, counted apart from its user's own; null: the deployment's default for credentials (RATE_LIMIT_PER_CREDENTIAL). Set by holders of ${MANAGE_KEY}`,
);

/** Giving a credential a budget of its own is for those who manage the workspace's credentials. */
export async function requireBudgetAdmin(request: FastifyRequest): Promise<void> {
  if (!(await request.permissions()).has(MANAGE_KEY)) throw forbidden(`Setting a credential's rate budget needs ${MANAGE_KEY}`);
}

/**
 * Which credentials of the active workspace the caller sees: their own, or everyone's with
 * {@link MANAGE_KEY}; `actor` is the caller.
 */
export async function filterOf(request: FastifyRequest): Promise<CredentialScopeFilter & { actor: number }> {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  const all = (await request.permissions()).has(MANAGE_KEY);
  return { companyId: workspace.companyId, workspaceId: workspace.id, userId: all ? null : principal.userId, actor: principal.userId };
}

/** Runs credential commands for a request's caller, each answered once the `org-credentials` read model shows it. */
export function credentialCommands(platform: Platform) {
  const writer = new OrgWriter(platform, ['org-credentials']);
  return async <C, E extends DomainEvent, S>(request: FastifyRequest, streamId: string, decider: Decider<C, E, S>, command: C): Promise<void> =>
    writer.settle(await writer.run(streamId, decider, command, writer.context(request)));
}
