import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findApiKey, listApiKeys, type ApiKeyView } from '#projections/org-credentials/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { apiKeyStream } from '#events/organization/credentials.js';
import { apiKeyDecider } from '../decide.js';
import { creationTime, credentialCommands, filterOf, IdParams, MANAGE_KEY, Name, newCredential, RateBudget, Scope, ScopeList, setCredentialBudget, visibleCredential, type CredentialLookup, type CredentialsOptions, HoldFields, withHold, approveCredential } from '../http.js';
import { API_KEY_PREFIX } from '../service.js';

const tags = ['/v1 credentials: API keys'];

const apiKeys: CredentialLookup<ApiKeyView> = { find: findApiKey, notFound: 'API key not found' };

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
    rateLimit: RateBudget,
    ...HoldFields,
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
  rateLimit: RateBudget,
});

/**
 * `/api/v1/api-keys`: API keys of the `/v1` set, acting as their creator in the workspace active at
 * creation; `API_KEY_MANAGE` sees and revokes all of the workspace's.
 */
export async function apiKeyRoutes(app: FastifyInstance, opts: CredentialsOptions): Promise<void> {
  const { platform, credentials } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const write = credentialCommands(platform);

  r.post('/api-keys', {
    schema: {
      tags,
      summary: 'Create a /v1 API key for yourself in the active workspace; its value is in this answer only',
      body: z.object({ name: Name, scopes: ScopeList, rateLimit: RateBudget.optional() }),
      response: { 201: CreatedApiKey },
    },
    handler: async (request, reply) => {
      const keyId = randomUUID();
      const key = `${API_KEY_PREFIX}${randomToken(32)}`;
      const prefix = key.slice(0, API_KEY_PREFIX.length + 8);
      const { name, scopes } = request.body;
      const { rateLimit, owner, creator } = await newCredential(platform, request, request.body.rateLimit);
      await write(request, apiKeyStream(keyId), apiKeyDecider, { type: 'CreateApiKey', keyId, name, scopes, keyHash: hashToken(key), prefix, ...owner });
      const createdAt = await creationTime(platform, apiKeys, creator, keyId);
      reply.code(201).header('cache-control', 'no-store');
      return { id: keyId, name, scopes, key, prefix, workspaceId: creator.workspaceId, createdAt, rateLimit };
    },
  });

  r.get('/api-keys', {
    schema: {
      tags,
      summary: `Your /v1 API keys in the active workspace, revoked ones too (everyone's with ${MANAGE_KEY}); never their values`,
      response: { 200: z.array(ApiKey) },
    },
    handler: async (request) => Promise.all((await listApiKeys(platform.db, await filterOf(request))).map((v) => withHold(credentials, v))),
  });

  r.get('/api-keys/:id', {
    schema: { tags, summary: 'One /v1 API key (never its value)', params: IdParams, response: { 200: ApiKey } },
    handler: async (request) => withHold(credentials, (await visibleCredential(platform, apiKeys, request, request.params.id)).record),
  });

  r.patch('/api-keys/:id', {
    schema: {
      tags,
      summary: `Set a live /v1 API key's own rate budget (null: the default for credentials); needs ${MANAGE_KEY}`,
      params: IdParams,
      body: z.object({ rateLimit: RateBudget }),
      response: { 200: ApiKey },
    },
    handler: async (request) =>
      withHold(
        credentials,
        await setCredentialBudget(platform, apiKeys, request, request.params.id, (keyId, setBy) =>
        write(request, apiKeyStream(keyId), apiKeyDecider, { type: 'SetApiKeyRateLimit', keyId, rateLimit: request.body.rateLimit, setBy }),
      ),
      ),
  });

  r.post('/api-keys/:id/approve', {
    schema: {
      tags,
      summary: 'Let a credential made from a password sign-in work again where the company requires single sign-on; needs USER_ADMIN_MANAGE',
      params: IdParams,
      response: { 200: ApiKey },
    },
    handler: async (request) => withHold(credentials, await approveCredential(platform, apiKeys, request, request.params.id, 'api-key')),
  });

  r.delete('/api-keys/:id', {
    schema: {
      tags,
      summary: `Revoke a /v1 API key: yours, or anyone's with ${MANAGE_KEY}; it is refused from the next request on`,
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const { record, filter } = await visibleCredential(platform, apiKeys, request, request.params.id);
      await write(request, apiKeyStream(record.id), apiKeyDecider, { type: 'RevokeApiKey', keyId: record.id, revokedBy: filter.actor });
      reply.code(204);
      return null;
    },
  });
}
