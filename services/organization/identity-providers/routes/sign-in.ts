import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IDENTITY_PROVIDER_TYPES } from '#events/organization/identity-providers.js';
import { offeredIdentityProviders } from '../../domains/index.js';
import { IdParams } from '../../http.js';
import type { IdentityProviderFeatureOptions } from '../options.js';
import { clientOf } from '../../auth/routes.js';
import { AppError } from '#shared/errors.js';
import { hasMalformedEscapes } from '#shared/http/input-hygiene.js';

const tags = ['Authentication'];

const TokenPair = z.object({ token: z.string(), expiresIn: z.string(), refreshToken: z.string() });

/**
 * The public side: the providers a sign-in page may offer for an address, the browser's round trip
 * through a provider (start, callback; SAML's assertion consumer service is the callback with POST),
 * and the console's exchange of its one-time code for the token pair.
 */
export async function signInRoutes(app: FastifyInstance, opts: IdentityProviderFeatureOptions): Promise<void> {
  const { platform, flows } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // SAML's HTTP-POST binding is a form; only in this plugin (everywhere else a form body stays a 415).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => {
    if (hasMalformedEscapes(body as string)) return done(new AppError('INVALID_INPUT', 'Invalid text in body: percent-escapes that are not UTF-8'), undefined);
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  r.get('/auth/providers', {
    schema: {
      tags,
      summary: 'The identity providers the owner of an address\'s domain (the company that verified it) offers for it on a sign-in page; `enforce`: the only way in',
      security: [],
      querystring: z.object({ email: z.string().trim().max(254).default('') }),
      response: { 200: z.array(z.object({ id: z.number().int(), type: z.enum(IDENTITY_PROVIDER_TYPES), name: z.string(), enforce: z.boolean() })) },
    },
    handler: async (request) => (await offeredIdentityProviders(platform.db, request.query.email)).map((p) => ({ id: p.id, type: p.type, name: p.name, enforce: p.enforce })),
  });

  r.get('/auth/sso/:id/start', {
    schema: { tags, summary: 'Go to the provider to sign in (302); LDAP providers sign in with POST /auth/login', security: [], params: IdParams },
    handler: async (request, reply) => reply.redirect(await flows.start(request.params.id), 302),
  });

  r.get('/auth/sso/:id/callback', {
    schema: { tags, summary: "The OpenID provider's answer; ends in the console (302) with a one-time code, or the failure", security: [], params: IdParams },
    handler: async (request, reply) => {
      const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length));
      return reply.redirect(await flows.callback(request.params.id, query, clientOf(request)), 302);
    },
  });

  r.post('/auth/sso/:id/callback', {
    schema: {
      tags,
      summary: "SAML assertion consumer service (HTTP-POST binding); ends in the console (302) with a one-time code, or the failure",
      security: [],
      params: IdParams,
      body: z.object({ SAMLResponse: z.string().max(1_000_000).optional(), RelayState: z.string().max(512).optional() }),
    },
    handler: async (request, reply) => {
      const form = new URLSearchParams(Object.entries(request.body).filter((e): e is [string, string] => typeof e[1] === 'string'));
      return reply.redirect(await flows.callback(request.params.id, form, clientOf(request)), 302);
    },
  });

  r.post('/auth/sso/exchange', {
    schema: { tags, summary: 'The token pair of a finished sign-in through a provider, for its one-time code (once, within a minute)', security: [], body: z.object({ code: z.string().min(1).max(128) }), response: { 200: TokenPair } },
    handler: async (request) => flows.exchange(request.body.code),
  });
}
