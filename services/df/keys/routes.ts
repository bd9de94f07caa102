import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activeKeyByHash, findApiKey, listApiKeys } from '#projections/df-api-keys/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { handleCommand } from '#shared/es/decider.js';
import { found } from '#shared/errors.js';
import { moduleKeyVerifier } from '#shared/http/key-verifier.js';
import type { ActiveWorkspace } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, pageOf, paging } from '../http.js';
import { apiKeyDecider } from './decide.js';
import { apiKeyStream } from '#events/df/keys.js';

const KEY_PREFIX = 'dfk_';

const ApiKey = z
  .object({ id: z.string(), name: z.string(), prefix: z.string(), createdBy: z.number(), workspaceId: z.number(), createdAt: z.string(), revokedAt: z.string().nullable(), revoked: z.boolean() })
  .meta({ id: 'DfApiKey' });

const tags = ['Device testing: API keys'];

/**
 * Verifies an `X-Api-Key`: a live key acts as the user who created it, in the workspace it was made
 * in, and only while that user can still enter that workspace.
 */
export function apiKeyVerifier(
  platform: Platform,
  resolveWorkspace: (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>,
) {
  return moduleKeyVerifier({ prefix: KEY_PREFIX, jtiKind: 'df-api-key', activeByHash: (hash) => activeKeyByHash(platform.db, hash), resolveWorkspace });
}

/** `/df/api/keys`: create (the value is shown once), list, read and revoke device-testing API keys. */
export async function apiKeyRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const Params = z.object({ keyId: idParam });
  const settle = async (position: bigint | null) => {
    if (position !== null) await platform.readModels.waitFor(position, { names: ['df-api-keys'] });
  };

  r.get('/api/keys', {
    schema: { tags, summary: 'API keys of the workspace', querystring: z.object(paging), response: { 200: pageOf(ApiKey) } },
    handler: async (request) => listApiKeys(platform.db, await caller(request, 'df:key:manage'), request.query),
  });

  r.post('/api/keys', {
    schema: {
      tags,
      summary: 'Create an API key; its value is in this answer only',
      body: z.object({ name: z.string().trim().min(1).max(100) }),
      response: { 201: z.object({ id: z.string(), name: z.string(), key: z.string(), prefix: z.string(), createdAt: z.string() }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:key:manage');
      const keyId = randomUUID();
      const key = `${KEY_PREFIX}${randomToken(32)}`;
      const prefix = key.slice(0, KEY_PREFIX.length + 6);
      const result = await handleCommand({
        store: platform.store,
        streamId: apiKeyStream(keyId),
        decider: apiKeyDecider,
        command: { type: 'CreateApiKey', keyId, name: request.body.name, keyHash: hashToken(key), prefix, userId: c.userId, companyId: c.companyId, workspaceId: c.workspaceId },
        context: { actorId: c.userId, companyId: c.companyId, workspaceId: c.workspaceId, now: platform.now() },
      });
      await settle(result.position);
      reply.code(201).header('cache-control', 'no-store');
      return { id: keyId, name: request.body.name, key, prefix, createdAt: platform.now().toISOString() };
    },
  });

  r.get('/api/keys/:keyId', {
    schema: { tags, summary: 'One API key (never its value)', params: Params, response: { 200: ApiKey } },
    handler: async (request) => {
      return found(await findApiKey(platform.db, await caller(request, 'df:key:manage'), request.params.keyId), 'API key not found');
    },
  });

  r.delete('/api/keys/:keyId', {
    schema: { tags, summary: 'Revoke an API key', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await caller(request, 'df:key:manage');
      const record = found(await findApiKey(platform.db, c, request.params.keyId), 'API key not found');
      const result = await handleCommand({
        store: platform.store,
        streamId: apiKeyStream(record.id),
        decider: apiKeyDecider,
        command: { type: 'RevokeApiKey', keyId: record.id },
        context: { actorId: c.userId, companyId: c.companyId, workspaceId: c.workspaceId, now: platform.now() },
      });
      await settle(result.position);
      reply.code(204);
      return null;
    },
  });
}
