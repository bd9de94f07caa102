import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activeHcApiKeyByHash, findHcApiKey, listHcApiKeys } from '#projections/hc-api-keys/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { handleCommand } from '#shared/es/decider.js';
import { found } from '#shared/errors.js';
import { moduleKeyVerifier } from '#shared/http/key-verifier.js';
import type { ActiveWorkspace } from '#shared/http/principal.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { caller, idParam, paging } from '../http.js';
import { healthcheckApiKeyDecider } from './decide.js';
import { healthcheckApiKeyStream } from '#events/healthcheck/keys.js';

export const HEALTHCHECK_KEY_PREFIX = 'hck_';

const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    createdBy: z.number(),
    workspaceId: z.number(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    revoked: z.boolean(),
  })
  .meta({ id: 'HealthcheckApiKey' });

const tags = ['Health checks: API keys'];

/**
 * Verifies an `X-API-KEY`: a live key acts as the user who created it, in the workspace it was made
 * in, and only while that user can still enter that workspace.
 */
export function healthcheckApiKeyVerifier(
  platform: Platform,
  resolveWorkspace: (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>,
) {
  return moduleKeyVerifier({ prefix: HEALTHCHECK_KEY_PREFIX, jtiKind: 'hc-api-key', activeByHash: (hash) => activeHcApiKeyByHash(platform.db, hash), resolveWorkspace });
}

/**
 * `/healthcheck/api/v1/api-keys`: create (the value is shown once), list and revoke health-check API
 * keys. Managing keys takes a user's bearer token with HEALTHCHECK_MANAGE; a key cannot manage keys.
 */
export async function healthcheckApiKeyRoutes(app: FastifyInstance, opts: { platform: Platform }): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const settle = async (position: bigint | null) => {
    if (position !== null) await platform.readModels.waitFor(position, { names: ['hc-api-keys'] });
  };

  r.get('/healthcheck/api/v1/api-keys', {
    schema: { tags, summary: 'Health-check API keys of the workspace (never their values)', querystring: z.object(paging), response: { 200: pageSchema(ApiKey) } },
    handler: async (request) => listHcApiKeys(platform.db, await caller(request, 'HEALTHCHECK_MANAGE'), request.query),
  });

  r.post('/healthcheck/api/v1/api-keys', {
    schema: {
      tags,
      summary: 'Create a health-check API key; its value is in this answer only',
      body: z.object({ name: z.string().trim().min(1).max(100) }),
      response: { 201: z.object({ id: z.string(), name: z.string(), key: z.string(), prefix: z.string(), createdAt: z.string() }) },
    },
    handler: async (request, reply) => {
      const c = await caller(request, 'HEALTHCHECK_MANAGE');
      const keyId = randomUUID();
      const key = `${HEALTHCHECK_KEY_PREFIX}${randomToken(32)}`;
      const prefix = key.slice(0, HEALTHCHECK_KEY_PREFIX.length + 6);
      const now = platform.now();
      const result = await handleCommand({
        store: platform.store,
        streamId: healthcheckApiKeyStream(keyId),
        decider: healthcheckApiKeyDecider,
        command: {
          type: 'CreateHealthcheckApiKey',
          keyId,
          name: request.body.name,
          keyHash: hashToken(key),
          prefix,
          userId: c.userId,
          companyId: c.companyId,
          workspaceId: c.workspaceId,
        },
        context: { actorId: c.userId, companyId: c.companyId, workspaceId: c.workspaceId, now },
      });
      await settle(result.position);
      reply.code(201).header('cache-control', 'no-store');
      return { id: keyId, name: request.body.name, key, prefix, createdAt: now.toISOString() };
    },
  });

  r.delete('/healthcheck/api/v1/api-keys/:keyId', {
    schema: { tags, summary: 'Revoke a health-check API key; it stops working at once', params: z.object({ keyId: idParam }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await caller(request, 'HEALTHCHECK_MANAGE');
      const record = found(await findHcApiKey(platform.db, c, request.params.keyId), 'API key not found');
      const result = await handleCommand({
        store: platform.store,
        streamId: healthcheckApiKeyStream(record.id),
        decider: healthcheckApiKeyDecider,
        command: { type: 'RevokeHealthcheckApiKey', keyId: record.id },
        context: { actorId: c.userId, companyId: c.companyId, workspaceId: c.workspaceId, now: platform.now() },
      });
      await settle(result.position);
      reply.code(204);
      return null;
    },
  });
}
