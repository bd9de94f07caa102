import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findOAuthClient, listOAuthClients, type OAuthClientView } from '#projections/org-credentials/index.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { oauthClientStream } from '#events/organization/credentials.js';
import { oauthClientDecider } from '../decide.js';
import { creationTime, credentialCommands, filterOf, IdParams, MANAGE_KEY, Name, newCredential, RateBudget, Scope, ScopeList, setCredentialBudget, visibleCredential, type CredentialLookup, type CredentialsOptions, HoldFields, withHold, approveCredential } from '../http.js';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX } from '../service.js';

const tags = ['/v1 credentials: OAuth clients'];

const oauthClients: CredentialLookup<OAuthClientView> = { find: findOAuthClient, notFound: 'OAuth client not found' };

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
    rateLimit: RateBudget,
    ...HoldFields,
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
  rateLimit: RateBudget,
});

/**
 * `/api/v1/oauth-clients`: OAuth 2.0 clients (client credentials) of the `/v1` set, acting as their
 * creator in the workspace active at creation; `{MANAGE_KEY}` sees and deletes all of the workspace's.
 */
export async function oauthClientRoutes(app: FastifyInstance, opts: CredentialsOptions): Promise<void> {
  const { platform, credentials } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const write = credentialCommands(platform);

  r.post('/oauth-clients', {
    schema: {
      tags,
      summary: 'Create an OAuth 2.0 client (client credentials) acting as you in the active workspace; the secret is in this answer only',
      body: z.object({ name: Name, scopes: ScopeList, rateLimit: RateBudget.optional() }),
      response: { 201: CreatedOAuthClient },
    },
    handler: async (request, reply) => {
      const id = randomUUID();
      const clientId = `${CLIENT_ID_PREFIX}${randomToken(16)}`;
      const clientSecret = `${CLIENT_SECRET_PREFIX}${randomToken(32)}`;
      const { name, scopes } = request.body;
      const { rateLimit, owner, creator } = await newCredential(platform, request, request.body.rateLimit);
      await write(request, oauthClientStream(id), oauthClientDecider, { type: 'CreateOAuthClient', id, clientId, name, scopes, secretHash: hashToken(clientSecret), ...owner });
      const createdAt = await creationTime(platform, oauthClients, creator, id);
      reply.code(201).header('cache-control', 'no-store');
      return { id, clientId, clientSecret, name, scopes, workspaceId: creator.workspaceId, createdAt, rateLimit };
    },
  });

  r.get('/oauth-clients', {
    schema: {
      tags,
      summary: `Your OAuth clients in the active workspace (everyone's with ${MANAGE_KEY}); never their secrets`,
      response: { 200: z.array(OAuthClient) },
    },
    handler: async (request) => Promise.all((await listOAuthClients(platform.db, await filterOf(request))).map((v) => withHold(credentials, v))),
  });

  r.get('/oauth-clients/:id', {
    schema: { tags, summary: 'One OAuth client (never its secret)', params: IdParams, response: { 200: OAuthClient } },
    handler: async (request) => withHold(credentials, (await visibleCredential(platform, oauthClients, request, request.params.id)).record),
  });

  r.patch('/oauth-clients/:id', {
    schema: {
      tags,
      summary: `Set an OAuth client's own rate budget (null: the default for credentials), for the tokens it has and will get; needs ${MANAGE_KEY}`,
      params: IdParams,
      body: z.object({ rateLimit: RateBudget }),
      response: { 200: OAuthClient },
    },
    handler: async (request) =>
      withHold(
        credentials,
        await setCredentialBudget(platform, oauthClients, request, request.params.id, (clientRecordId, setBy) =>
        write(request, oauthClientStream(clientRecordId), oauthClientDecider, { type: 'SetOAuthClientRateLimit', id: clientRecordId, rateLimit: request.body.rateLimit, setBy }),
      ),
      ),
  });

  r.post('/oauth-clients/:id/approve', {
    schema: {
      tags,
      summary: 'Let a credential made from a password sign-in work again where the company requires single sign-on; needs USER_ADMIN_MANAGE',
      params: IdParams,
      response: { 200: OAuthClient },
    },
    handler: async (request) => withHold(credentials, await approveCredential(platform, oauthClients, request, request.params.id, 'oauth-client')),
  });

  r.delete('/oauth-clients/:id', {
    schema: {
      tags,
      summary: `Delete an OAuth client (yours, or anyone's with ${MANAGE_KEY}); every token issued to it stops working`,
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const { record, filter } = await visibleCredential(platform, oauthClients, request, request.params.id);
      // The marker first: from here on no token of this client passes, even before the event lands.
      await credentials.markClientDeleted(record.id);
      await write(request, oauthClientStream(record.id), oauthClientDecider, { type: 'DeleteOAuthClient', id: record.id, deletedBy: filter.actor });
      reply.code(204);
      return null;
    },
  });
}
