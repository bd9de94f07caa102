import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findApiKey, findOAuthClient, listApiKeys, listOAuthClients, type CredentialScopeFilter } from '#projections/org-credentials/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { handleCommand, type CommandResult, type Decider, type DomainEvent } from '#shared/es/decider.js';
import { found } from '#shared/errors.js';
import { CREDENTIAL_SCOPES, requirePrincipal, requireWorkspace } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { apiKeyDecider, oauthClientDecider } from './decide.js';
import { apiKeyStream, oauthClientStream } from '#events/organization/credentials.js';
import { API_KEY_PREFIX, CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, type CredentialService } from './service.js';

/** The permission to see and revoke other users' keys and clients in the workspace. */
export const MANAGE_KEY = 'API_KEY_MANAGE';
const READ_MODELS = ['org-credentials'] as const;

const Scope = z.enum(CREDENTIAL_SCOPES);
const ScopeList = z
  .array(Scope)
  .min(1)
  .max(CREDENTIAL_SCOPES.length * 4)
  .transform((s) => CREDENTIAL_SCOPES.filter((x) => s.includes(x)))
  .describe('What it may do on /v1: read (GET, HEAD), write (POST, PUT, PATCH), delete (DELETE), admin (all)');
const Name = z.string().trim().min(1).max(100);
const IdParams = z.object({ id: z.uuid() });

const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to recognise it'),
    scopes: z.array(Scope),
    workspaceId: z.number().int(),
    createdBy: z.number().int(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().describe('Updated at most once a minute'),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'V1ApiKey' });

const CreatedApiKey = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(Scope),
  key: z.string().describe('The key itself: shown in this answer only'),
  prefix: z.string(),
  workspaceId: z.number().int(),
  createdAt: z.string(),
});

const OAuthClient = z
  .object({
    id: z.string(),
    clientId: z.string(),
    name: z.string(),
    scopes: z.array(Scope),
    workspaceId: z.number().int(),
    createdBy: z.number().int(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().describe('Last token issued or used; updated at most once a minute'),
  })
  .meta({ id: 'OAuthClient' });

const CreatedOAuthClient = z.object({
  id: z.string(),
  clientId: z.string(),
  clientSecret: z.string().describe('Shown in this answer only'),
  name: z.string(),
  scopes: z.array(Scope),
  workspaceId: z.number().int(),
  createdAt: z.string(),
});

/**
 * `/api/v1/api-keys` and `/api/v1/oauth-clients`: the credentials of the `/v1` set. Anyone may create
 * their own (they act as their creator, never beyond the creator's permissions, in the workspace
 * active at creation); everyone sees and revokes their own; `API_KEY_MANAGE` sees and revokes all of
 * the workspace's. Another user's or workspace's credential is a 404 to those who may not manage it.
 */
export async function credentialRoutes(app: FastifyInstance, opts: { platform: Platform; credentials: CredentialService }): Promise<void> {
  const { platform, credentials } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  const filterOf = async (request: FastifyRequest): Promise<CredentialScopeFilter & { actor: number }> => {
    const principal = requirePrincipal(request);
    const workspace = requireWorkspace(request);
    const all = (await request.permissions()).has(MANAGE_KEY);
    return { companyId: workspace.companyId, workspaceId: workspace.id, userId: all ? null : principal.userId, actor: principal.userId };
  };

  const run = async <C, E extends DomainEvent, S>(
    request: FastifyRequest,
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
  ): Promise<CommandResult<E, S>> => {
    const principal = requirePrincipal(request);
    const result = await handleCommand({
      store: platform.store,
      streamId,
      decider,
      command,
      context: { actorId: principal.userId, companyId: principal.companyId, workspaceId: request.workspace?.id ?? null, correlationId: request.id, now: platform.now() },
    });
    if (result.position !== null) await platform.readModels.waitFor(result.position, { names: READ_MODELS });
    return result;
  };

  // ---- API keys -------------------------------------------------------------------------------
  const keyTags = ['/v1 credentials: API keys'];

  r.post('/api-keys', {
    schema: {
      tags: keyTags,
      summary: 'Create a /v1 API key for yourself in the active workspace; its value is in this answer only',
      body: z.object({ name: Name, scopes: ScopeList }),
      response: { 201: CreatedApiKey },
    },
    handler: async (request, reply) => {
      const principal = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const keyId = randomUUID();
      const key = `${API_KEY_PREFIX}${randomToken(32)}`;
      const prefix = key.slice(0, API_KEY_PREFIX.length + 8);
      const { name, scopes } = request.body;
      await run(request, apiKeyStream(keyId), apiKeyDecider, {
        type: 'CreateApiKey',
        keyId,
        name,
        scopes,
        keyHash: hashToken(key),
        prefix,
        userId: principal.userId,
        companyId: workspace.companyId,
        workspaceId: workspace.id,
      });
      const created = await findApiKey(platform.db, { companyId: workspace.companyId, workspaceId: workspace.id, userId: principal.userId }, keyId);
      reply.code(201).header('cache-control', 'no-store');
      return { id: keyId, name, scopes, key, prefix, workspaceId: workspace.id, createdAt: created?.createdAt ?? platform.now().toISOString() };
    },
  });

  r.get('/api-keys', {
    schema: {
      tags: keyTags,
      summary: `Your /v1 API keys in the active workspace, revoked ones too (everyone's with ${MANAGE_KEY}); never their values`,
      response: { 200: z.array(ApiKey) },
    },
    handler: async (request) => listApiKeys(platform.db, await filterOf(request)),
  });

  r.get('/api-keys/:id', {
    schema: { tags: keyTags, summary: 'One /v1 API key (never its value)', params: IdParams, response: { 200: ApiKey } },
    handler: async (request) => {
      return found(await findApiKey(platform.db, await filterOf(request), request.params.id), 'API key not found');
    },
  });

  r.delete('/api-keys/:id', {
    schema: {
      tags: keyTags,
      summary: `Revoke a /v1 API key: yours, or anyone's with ${MANAGE_KEY}; it is refused from the next request on`,
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const filter = await filterOf(request);
      const record = found(await findApiKey(platform.db, filter, request.params.id), 'API key not found');
      await run(request, apiKeyStream(record.id), apiKeyDecider, { type: 'RevokeApiKey', keyId: record.id, revokedBy: filter.actor });
      reply.code(204);
      return null;
    },
  });

  // ---- OAuth clients --------------------------------------------------------------------------
  const clientTags = ['/v1 credentials: OAuth clients'];

  r.post('/oauth-clients', {
    schema: {
      tags: clientTags,
      summary: 'Create an OAuth 2.0 client (client credentials) acting as you in the active workspace; the secret is in this answer only',
      body: z.object({ name: Name, scopes: ScopeList }),
      response: { 201: CreatedOAuthClient },
    },
    handler: async (request, reply) => {
      const principal = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const id = randomUUID();
      const clientId = `${CLIENT_ID_PREFIX}${randomToken(16)}`;
      const clientSecret = `${CLIENT_SECRET_PREFIX}${randomToken(32)}`;
      const { name, scopes } = request.body;
      await run(request, oauthClientStream(id), oauthClientDecider, {
        type: 'CreateOAuthClient',
        id,
        clientId,
        name,
        scopes,
        secretHash: hashToken(clientSecret),
        userId: principal.userId,
        companyId: workspace.companyId,
        workspaceId: workspace.id,
      });
      const created = await findOAuthClient(platform.db, { companyId: workspace.companyId, workspaceId: workspace.id, userId: principal.userId }, id);
      reply.code(201).header('cache-control', 'no-store');
      return { id, clientId, clientSecret, name, scopes, workspaceId: workspace.id, createdAt: created?.createdAt ?? platform.now().toISOString() };
    },
  });

  r.get('/oauth-clients', {
    schema: {
      tags: clientTags,
      summary: `Your OAuth clients in the active workspace (everyone's with ${MANAGE_KEY}); never their secrets`,
      response: { 200: z.array(OAuthClient) },
    },
    handler: async (request) => listOAuthClients(platform.db, await filterOf(request)),
  });

  r.get('/oauth-clients/:id', {
    schema: { tags: clientTags, summary: 'One OAuth client (never its secret)', params: IdParams, response: { 200: OAuthClient } },
    handler: async (request) => {
      return found(await findOAuthClient(platform.db, await filterOf(request), request.params.id), 'OAuth client not found');
    },
  });

  r.delete('/oauth-clients/:id', {
    schema: {
      tags: clientTags,
      summary: `Delete an OAuth client (yours, or anyone's with ${MANAGE_KEY}); every token issued to it stops working`,
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const filter = await filterOf(request);
      const record = found(await findOAuthClient(platform.db, filter, request.params.id), 'OAuth client not found');
      // The marker first: from here on no token of this client passes, even before the event lands.
      await credentials.markClientDeleted(record.id);
      await run(request, oauthClientStream(record.id), oauthClientDecider, { type: 'DeleteOAuthClient', id: record.id, deletedBy: filter.actor });
      reply.code(204);
      return null;
    },
  });
}
