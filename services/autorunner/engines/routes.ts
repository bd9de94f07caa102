import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activeEngineByTokenHash, findEngine, listEngines, type EngineView } from '#projections/ar-engines/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { forbidden, found } from '#shared/errors.js';
import { credentialNeedsApproval } from '#shared/http/key-verifier.js';
import type { ActiveWorkspace, Principal } from '#shared/http/principal.js';
import { pageSchema } from '#shared/paging.js';
import type { Platform } from '../../platform.js';
import { signInMethodOf } from '../../sign-in-method.js';
import { idParam, markEngine, paging, userCaller } from '../http.js';
import { engineWrites } from './service.js';

export const ENGINE_TOKEN_PREFIX = 'aet_';

const Engine = z
  .object({
    id: z.string(),
    name: z.string(),
    labels: z.array(z.string()),
    tokenPrefix: z.string(),
    registeredBy: z.number(),
    workspaceId: z.number(),
    createdAt: z.string(),
    tokenRotatedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
    revoked: z.boolean(),
    signIn: z.enum(['password', 'sso']).describe('How the maker of its current token was signed in when they made it'),
    needsApproval: z
      .boolean()
      .describe('Its token was made from a password sign-in while its company requires single sign-on: refused until an administrator approves the engine'),
  })
  .meta({ id: 'TestEngine' });

/** Whether an engine's token waits for an administrator's approval (docs/modules/identity.md, "What enforcement ends"). */
export type EngineHeld = (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>;

const tags = ['Test engines'];
const Params = z.object({ engineId: idParam });

function newEngineToken() {
  const token = `${ENGINE_TOKEN_PREFIX}${randomToken(32)}`;
  return { token, tokenHash: hashToken(token), tokenPrefix: token.slice(0, ENGINE_TOKEN_PREFIX.length + 6) };
}

/**
 * Verifies an `X-Engine-Token`: a live engine acts in the workspace it was registered in, on behalf
 * of the user who registered it and only while that user can still enter that workspace — and, where
 * its company requires single sign-on, only once approved if its token was made from a password sign-in
 * (403 CREDENTIAL_NEEDS_APPROVAL).
 */
export function engineTokenVerifier(
  platform: Platform,
  resolveWorkspace: (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>,
  held?: EngineHeld,
) {
  return async (token: string): Promise<{ principal: Principal; workspace: ActiveWorkspace } | null> => {
    if (!token.startsWith(ENGINE_TOKEN_PREFIX) || token.length > 200) return null;
    const found = await activeEngineByTokenHash(platform.db, hashToken(token));
    if (!found) return null;
    if (await held?.({ credentialId: found.engineId, userId: found.registeredBy, signIn: found.signIn })) throw credentialNeedsApproval();
    const workspace = await resolveWorkspace({ userId: found.registeredBy, companyId: found.companyId }, found.workspaceId);
    if (!workspace) return null;
    const principal = markEngine(
      {
        kind: 'user',
        userId: found.registeredBy,
        companyId: found.companyId,
        tokenWorkspaceId: found.workspaceId,
        jti: `engine:${found.engineId}`,
        // An engine token lives until it is rotated or revoked; the expiry is only a formality here.
        exp: Number.MAX_SAFE_INTEGER,
        iat: Math.floor(found.createdAt.getTime() / 1000),
        issuedAtMs: found.createdAt.getTime(),
      },
      { engineId: found.engineId, companyId: found.companyId, workspaceId: found.workspaceId },
    );
    return { principal, workspace };
  };
}

/** `/autorunner/api/v1/engines`: register (the token is shown once), list, read, rotate and revoke engines. */
export async function engineRoutes(app: FastifyInstance, opts: { platform: Platform; held?: EngineHeld }): Promise<void> {
  const { platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { run, approve } = engineWrites(platform);
  const withHold = async (e: EngineView) => ({ ...e, needsApproval: opts.held ? await opts.held({ credentialId: e.id, userId: e.registeredBy, signIn: e.signIn }) : false });
  const existing = async (c: { companyId: number; workspaceId: number }, engineId: string) => {
    return withHold(found(await findEngine(platform.db, c, engineId), 'Engine not found'));
  };

  r.get('/autorunner/api/v1/engines', {
    schema: { tags, summary: 'Test engines of the workspace (never their tokens)', querystring: z.object(paging), response: { 200: pageSchema(Engine) } },
    handler: async (request) => {
      const page = await listEngines(platform.db, await userCaller(request, 'AUTORUNNER_READ'), request.query);
      return { ...page, content: await Promise.all(page.content.map(withHold)) };
    },
  });

  r.post('/autorunner/api/v1/engines', {
    schema: {
      tags,
      summary: 'Register a test engine; its token (X-Engine-Token) is in this answer only',
      body: z.object({ name: z.string().trim().min(1).max(100), labels: z.array(z.string().trim().min(1).max(50)).max(20).optional() }),
      response: { 201: Engine.extend({ token: z.string() }) },
    },
    handler: async (request, reply) => {
      const c = await userCaller(request, 'AUTORUNNER_MANAGE');
      const engineId = randomUUID();
      const { token, tokenHash, tokenPrefix } = newEngineToken();
      await run(c, engineId, {
        type: 'RegisterEngine',
        engineId,
        name: request.body.name,
        labels: request.body.labels ?? [],
        tokenHash,
        tokenPrefix,
        registeredBy: c.userId,
        companyId: c.companyId,
        workspaceId: c.workspaceId,
        signIn: await signInMethodOf(platform, request),
      });
      reply.code(201).header('cache-control', 'no-store');
      return { ...(await existing(c, engineId)), token };
    },
  });

  r.get('/autorunner/api/v1/engines/:engineId', {
    schema: { tags, summary: 'One test engine', params: Params, response: { 200: Engine } },
    handler: async (request) => existing(await userCaller(request, 'AUTORUNNER_READ'), request.params.engineId),
  });

  r.post('/autorunner/api/v1/engines/:engineId/token/rotate', {
    schema: { tags, summary: 'Replace the token of an engine; the old one stops working at once', params: Params, response: { 200: Engine.extend({ token: z.string() }) } },
    handler: async (request, reply) => {
      const c = await userCaller(request, 'AUTORUNNER_MANAGE');
      const found = await existing(c, request.params.engineId);
      const { token, tokenHash, tokenPrefix } = newEngineToken();
      await run(c, found.id, { type: 'RotateEngineToken', engineId: found.id, tokenHash, tokenPrefix, signIn: await signInMethodOf(platform, request) });
      reply.header('cache-control', 'no-store');
      return { ...(await existing(c, found.id)), token };
    },
  });

  r.post('/autorunner/api/v1/engines/:engineId/approve', {
    schema: {
      tags,
      summary:
        'Let an engine whose token was made from a password sign-in work again where the company requires single sign-on; needs AUTORUNNER_MANAGE and USER_ADMIN_MANAGE',
      params: Params,
      response: { 200: Engine },
    },
    handler: async (request) => {
      const c = await userCaller(request, 'AUTORUNNER_MANAGE');
      if (!(await request.permissions()).has('USER_ADMIN_MANAGE')) throw forbidden('Approving an engine needs USER_ADMIN_MANAGE');
      const engine = await existing(c, request.params.engineId);
      await approve(c, { id: engine.id, createdBy: engine.registeredBy });
      return existing(c, engine.id);
    },
  });

  r.delete('/autorunner/api/v1/engines/:engineId', {
    schema: { tags, summary: 'Revoke a test engine; its token stops working at once', params: Params, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const c = await userCaller(request, 'AUTORUNNER_MANAGE');
      const found = await existing(c, request.params.engineId);
      await run(c, found.id, { type: 'RevokeEngine', engineId: found.id });
      reply.code(204);
      return null;
    },
  });
}
