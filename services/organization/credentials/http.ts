import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CredentialScopeFilter } from '#projections/org-credentials/index.js';
import type { Sql } from '#shared/db/index.js';
import { credentialApprovalStream, RateLimit } from '#events/organization/credentials.js';
import { credentialApprovalDecider } from '#shared/es/index.js';
import { forbidden, found } from '#shared/errors.js';
import { aggregate } from '#shared/es/index.js';
import { commandContext, type Decider, type DomainEvent } from '#shared/es/index.js';
import { CREDENTIAL_SCOPES, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { signInMethodOf } from '../../sign-in-method.js';
import { requestActor } from '../http.js';
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
  .describe(
    'What it may do: on /v1 read (GET, HEAD), write (POST, PUT, PATCH), delete (DELETE), admin (all); devices: the device API, the WebDriver hub and the CDP relay (as a device key does); webhooks: the webhooks of its workspace',
  );
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
  return async <C, E extends DomainEvent, S>(request: FastifyRequest, streamId: string, decider: Decider<C, E, S>, command: C): Promise<void> => {
    const credential = aggregate(platform, { decider, stream: (id) => id, readModels: ['org-credentials'] });
    await credential.run(streamId, command, commandContext(platform, requestActor(request)));
  };
}

/** The fields every credential's view adds about single sign-on (docs/modules/identity.md, "What enforcement ends"). */
export const HoldFields = {
  signIn: z.enum(['password', 'sso']).describe('How its creator was signed in when they made it'),
  needsApproval: z.boolean().describe('Made from a password sign-in while its company requires single sign-on: refused until an administrator approves it'),
};

/** A credential's view with whether it waits for an administrator's approval. */
export async function withHold<V extends { id: string; createdBy: number; signIn: 'password' | 'sso' }>(credentials: CredentialService, view: V): Promise<V & { needsApproval: boolean }> {
  return { ...view, needsApproval: await credentials.held({ credentialId: view.id, userId: view.createdBy, signIn: view.signIn }) };
}

/**
 * Lets a credential made from a password sign-in work again where its company requires single sign-on:
 * for the company's administrators (`USER_ADMIN_MANAGE`), who see every credential of the workspace.
 */
export async function approveCredential<View extends { id: string; createdAt: string; createdBy: number }>(
  platform: Platform,
  lookup: CredentialLookup<View>,
  request: FastifyRequest,
  id: string,
  kind: 'api-key' | 'oauth-client',
): Promise<View> {
  if (!(await request.permissions()).has('USER_ADMIN_MANAGE')) throw forbidden('Approving a credential needs USER_ADMIN_MANAGE');
  const { record, filter } = await visibleCredential(platform, lookup, request, id);
  const command = { type: 'ApproveCredential' as const, credentialId: record.id, kind, userId: record.createdBy, approvedBy: filter.actor };
  await credentialCommands(platform)(request, credentialApprovalStream(record.id), credentialApprovalDecider, command);
  return (await lookup.find(platform.db, filter, record.id)) ?? record;
}

/** How the routes of one kind of credential (API keys, OAuth clients) find one in `org-credentials`, and what its 404 says. */
export interface CredentialLookup<View extends { id: string; createdAt: string }> {
  find(db: Sql, filter: CredentialScopeFilter, id: string): Promise<View | null>;
  notFound: string;
}

/**
 * What every new credential is given besides its secret: whom it acts as (its creator), in which
 * workspace (the active one), and its own rate budget if asked for (which needs {@link MANAGE_KEY}).
 * `owner` goes into the create command as it is.
 */
export async function newCredential(platform: Platform, request: FastifyRequest, requested: number | null | undefined) {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  const rateLimit = requested ?? null;
  if (rateLimit !== null) await requireBudgetAdmin(request);
  const signIn = await signInMethodOf(platform, request);
  return {
    rateLimit,
    owner: { userId: principal.userId, companyId: workspace.companyId, workspaceId: workspace.id, signIn, ...(rateLimit !== null ? { rateLimit } : {}) },
    /** Its creator's view of the workspace's credentials: where it is read back. */
    creator: { companyId: workspace.companyId, workspaceId: workspace.id, userId: principal.userId } satisfies CredentialScopeFilter,
  };
}

/** When a credential just created was recorded, as the read model has it (or now, were it not there). */
export async function creationTime<View extends { id: string; createdAt: string }>(platform: Platform, lookup: CredentialLookup<View>, creator: CredentialScopeFilter, id: string): Promise<string> {
  return (await lookup.find(platform.db, creator, id))?.createdAt ?? platform.now().toISOString();
}

/** A credential the caller sees (see {@link filterOf}), with that view; 404 otherwise. */
export async function visibleCredential<View extends { id: string; createdAt: string }>(
  platform: Platform,
  lookup: CredentialLookup<View>,
  request: FastifyRequest,
  id: string,
): Promise<{ record: View; filter: CredentialScopeFilter & { actor: number } }> {
  const filter = await filterOf(request);
  return { record: found(await lookup.find(platform.db, filter, id), lookup.notFound), filter };
}

/**
 * Gives a credential the caller sees its own rate budget (needs {@link MANAGE_KEY}): `set` records it
 * as the caller (`actor`); the answer is the credential as it is then.
 */
export async function setCredentialBudget<View extends { id: string; createdAt: string }>(
  platform: Platform,
  lookup: CredentialLookup<View>,
  request: FastifyRequest,
  id: string,
  set: (id: string, actor: number) => Promise<void>,
): Promise<View> {
  await requireBudgetAdmin(request);
  const { record, filter } = await visibleCredential(platform, lookup, request, id);
  await set(record.id, filter.actor);
  return found(await lookup.find(platform.db, filter, record.id), lookup.notFound);
}
