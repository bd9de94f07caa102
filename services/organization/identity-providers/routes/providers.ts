import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IDENTITY_PROVIDER_TYPES, identityMapping } from '#events/organization/identity-providers.js';
import { requirePermission } from '#shared/http/principal.js';
import { callerOf, IdParams, requestActor } from '../../http.js';
import type { IdentityProviderFeatureOptions } from '../options.js';
import { viewOf } from '../service.js';
import { commandContext } from '#shared/es/index.js';

const tags = ['Identity providers'];
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^@?([a-z0-9-]+\.)+[a-z]{2,63}$/, 'a domain such as example.com');

const settings = {
  name: z.string().trim().min(2).max(64),
  enabled: z.boolean().default(true),
  domains: z.array(domain).min(1, 'at least one e-mail domain').max(50),
  enforce: z.boolean().default(false),
  jitProvisioning: z.boolean().default(false),
  mappings: z.array(identityMapping).max(100).default([]),
  config: z.record(z.string(), z.unknown()),
};

const Mapping = z.object({
  group: z.string().optional(),
  claim: z.string().optional(),
  value: z.string().optional(),
  roleIds: z.array(z.number().int()),
  teamIds: z.array(z.number().int()),
  workspaceIds: z.array(z.number().int()),
});

export const IdentityProvider = z
  .object({
    id: z.number().int(),
    type: z.enum(IDENTITY_PROVIDER_TYPES),
    name: z.string(),
    enabled: z.boolean(),
    domains: z.array(z.string()),
    enforce: z.boolean().describe('Password sign-in refused (403 SSO_REQUIRED) for addresses of these domains'),
    jitProvisioning: z.boolean().describe('Create the user at their first sign-in'),
    mappings: z.array(Mapping),
    config: z.record(z.string(), z.unknown()).describe('Without its secrets (write-only)'),
    secretsSet: z.array(z.string()).describe('Which secrets of the configuration are set'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'IdentityProvider' });

/** `/api/v1/identity-providers`: a company's identity providers (USER_ADMIN_MANAGE), and "try this configuration". */
export async function providerRoutes(app: FastifyInstance, opts: IdentityProviderFeatureOptions): Promise<void> {
  const { platform, providers } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = async (request: Parameters<typeof requirePermission>[0]) => {
    await requirePermission(request, 'USER_ADMIN_MANAGE');
    return { companyId: callerOf(request).companyId, permissions: await request.permissions() };
  };

  r.get('/identity-providers', {
    schema: { tags, summary: "The company's identity providers (USER_ADMIN_MANAGE)", response: { 200: z.array(IdentityProvider) } },
    handler: async (request) => (await providers.list((await admin(request)).companyId)).map(viewOf),
  });

  r.post('/identity-providers', {
    schema: {
      tags,
      summary: 'Add an OpenID Connect, SAML 2.0 or LDAP provider (USER_ADMIN_MANAGE); `config` by type, docs/modules/identity.md',
      body: z.object({ type: z.enum(IDENTITY_PROVIDER_TYPES), ...settings }),
      response: { 201: IdentityProvider },
    },
    handler: async (request, reply) => {
      const caller = await admin(request);
      return reply.code(201).send(viewOf(await providers.create(caller, request.body, commandContext(platform, requestActor(request)))));
    },
  });

  r.get('/identity-providers/:id', {
    schema: { tags, summary: 'One identity provider (USER_ADMIN_MANAGE)', params: IdParams, response: { 200: IdentityProvider } },
    handler: async (request) => viewOf(await providers.get((await admin(request)).companyId, request.params.id)),
  });

  r.put('/identity-providers/:id', {
    schema: {
      tags,
      summary: 'Replace the settings of an identity provider; a secret left out of `config` is kept (USER_ADMIN_MANAGE)',
      params: IdParams,
      body: z.object(settings),
      response: { 200: IdentityProvider },
    },
    handler: async (request) => viewOf(await providers.change(await admin(request), request.params.id, request.body, commandContext(platform, requestActor(request)))),
  });

  r.delete('/identity-providers/:id', {
    schema: { tags, summary: 'Remove an identity provider; its users stay (USER_ADMIN_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await providers.delete((await admin(request)).companyId, request.params.id, commandContext(platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });

  r.post('/identity-providers/:id/test', {
    schema: {
      tags,
      summary: 'Try the configuration: OpenID discovery, the SAML settings, or a bind and a read of the LDAP search base (USER_ADMIN_MANAGE)',
      params: IdParams,
      response: { 200: z.object({ ok: z.literal(true), details: z.record(z.string(), z.unknown()) }) },
    },
    handler: async (request) => ({ ok: true as const, details: await opts.check(request.params.id, (await admin(request)).companyId) }),
  });
}
