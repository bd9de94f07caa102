import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DOMAIN_NAME } from '#events/organization/domains.js';
import { requirePermission } from '#shared/http/principal.js';
import { callerOf, requestActor } from '../http.js';
import type { DomainFeatureOptions } from './options.js';
import { domainView } from './service.js';
import { commandContext } from '#shared/es/index.js';

const tags = ['Domains'];

/** An e-mail domain as people write it; a trailing dot and upper case are taken off. */
const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .transform((v) => v.replace(/\.$/, ''))
  .pipe(z.string().regex(DOMAIN_NAME, 'a domain such as example.com'));

const DomainParams = z.object({ domain: domainName });

const Domain = z
  .object({
    domain: z.string(),
    verification: z
      .object({ type: z.literal('dns-txt'), name: z.string(), value: z.string() })
      .describe('The TXT record to publish: at `name`, with exactly `value`'),
    verifiedAt: z.string().nullable().describe('When the company proved the domain is its own; null while unverified'),
  })
  .meta({ id: 'Domain' });

/** `/api/v1/domains`: the company's e-mail domains, their proof by DNS and their release (USER_ADMIN_MANAGE). */
export async function domainRoutes(app: FastifyInstance, opts: DomainFeatureOptions): Promise<void> {
  const { platform, domains } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = async (request: Parameters<typeof requirePermission>[0]) => {
    await requirePermission(request, 'USER_ADMIN_MANAGE');
    return callerOf(request).companyId;
  };

  r.get('/domains', {
    schema: { tags, summary: "The company's e-mail domains, verified or not (USER_ADMIN_MANAGE)", response: { 200: z.array(Domain) } },
    handler: async (request) => (await domains.list(await admin(request))).map(domainView),
  });

  r.post('/domains', {
    schema: {
      tags,
      summary: 'Claim an e-mail domain; the answer names the TXT record that proves it (USER_ADMIN_MANAGE). 409 DOMAIN_TAKEN when another company verified it',
      body: z.object({ domain: domainName }),
      response: { 201: Domain },
    },
    handler: async (request, reply) => {
      const companyId = await admin(request);
      return reply.code(201).send(domainView(await domains.claim(companyId, request.body.domain, commandContext(platform, requestActor(request)))));
    },
  });

  r.post('/domains/:domain/verify', {
    schema: {
      tags,
      summary: 'Look the TXT record up and verify the domain (USER_ADMIN_MANAGE); 409 DOMAIN_NOT_VERIFIED says what the resolver saw, DOMAIN_TAKEN when another company was first',
      params: DomainParams,
      response: { 200: Domain },
    },
    handler: async (request) => {
      const companyId = await admin(request);
      return domainView(await domains.verify(companyId, request.params.domain, commandContext(platform, requestActor(request))));
    },
  });

  r.delete('/domains/:domain', {
    schema: { tags, summary: "Give the domain up: its providers no longer enforce or are offered for it (USER_ADMIN_MANAGE)", params: DomainParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const companyId = await admin(request);
      await domains.release(companyId, request.params.domain, commandContext(platform, requestActor(request)));
      return reply.code(204).send(null);
    },
  });
}
