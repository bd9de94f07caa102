import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findScimToken, listScimTokens } from '#projections/org-scim/index.js';
import { found } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import { callerOf, intId, requestActor } from '../../http.js';
import { assertMayGrantRoles, requireRoles } from '../../roles/index.js';
import type { ScimFeatureOptions } from '../options.js';
import { commandContext } from '#shared/es/index.js';
import { signInMethodOf } from '../../../sign-in-method.js';

const tags = ['SCIM provisioning'];

const ScimToken = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the token, to recognise it'),
    roleIds: z.array(z.number().int()).describe('Company roles every user it provisions is given'),
    createdBy: z.number().int(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    signIn: z.enum(['password', 'sso']).describe('How its creator was signed in when they made it'),
    needsApproval: z.boolean().describe('Made from a password sign-in while the company requires single sign-on: refused until an administrator approves it'),
  })
  .meta({ id: 'ScimToken' });

const CreatedScimToken = ScimToken.extend({ token: z.string().describe('The token itself (`scim_...`): shown in this answer only') });

/** `/api/v1/scim-tokens`: the company's provisioning tokens (USER_ADMIN_MANAGE). */
export async function scimTokenRoutes(app: FastifyInstance, opts: ScimFeatureOptions): Promise<void> {
  const { platform, scim } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/scim-tokens', {
    schema: { tags, summary: "The company's SCIM tokens, revoked ones too (USER_ADMIN_MANAGE)", response: { 200: z.array(ScimToken) } },
    handler: async (request) => {
      await requirePermission(request, 'USER_ADMIN_MANAGE');
      const tokens = await listScimTokens(platform.db, callerOf(request).companyId);
      return Promise.all(tokens.map(async (t) => ({ ...t, needsApproval: await scim.needsApproval(t) })));
    },
  });

  r.post('/scim-tokens', {
    schema: {
      tags,
      summary: 'A token for a directory to provision users and teams at /scim/v2; the token is answered once (USER_ADMIN_MANAGE)',
      body: z.object({ name: z.string().trim().min(2).max(64), roleIds: z.array(intId).max(50).default([]) }),
      response: { 201: CreatedScimToken },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'USER_ADMIN_MANAGE');
      const p = callerOf(request);
      // The roles a token hands out are roles the administrator could grant themselves.
      assertMayGrantRoles(await request.permissions(), await requireRoles(platform.db, p.companyId, request.body.roleIds));
      const signIn = await signInMethodOf(platform, request);
      const { token, view } = await scim.createToken(p.companyId, p.userId, { ...request.body, signIn }, commandContext(platform, requestActor(request)));
      return reply.code(201).send({ ...view, needsApproval: await scim.needsApproval(view), token });
    },
  });

  r.post('/scim-tokens/:id/approve', {
    schema: {
      tags,
      summary: 'Let a SCIM token made from a password sign-in work again where the company requires single sign-on (USER_ADMIN_MANAGE)',
      params: z.object({ id: z.uuid() }),
      response: { 200: ScimToken },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_ADMIN_MANAGE');
      const p = callerOf(request);
      const token = found(await findScimToken(platform.db, p.companyId, request.params.id), 'SCIM token not found');
      await scim.approveToken(token, p.userId, commandContext(platform, requestActor(request)));
      return { ...token, needsApproval: await scim.needsApproval(token) };
    },
  });

  r.delete('/scim-tokens/:id', {
    schema: { tags, summary: 'Revoke a SCIM token; requests with it are refused at once (USER_ADMIN_MANAGE)', params: z.object({ id: z.uuid() }), response: { 204: z.null() } },
    handler: async (request, reply) => {
      await requirePermission(request, 'USER_ADMIN_MANAGE');
      const p = callerOf(request);
      await scim.revokeToken(p.companyId, request.params.id, p.userId, commandContext(platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });
}
