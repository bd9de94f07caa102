import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { oauthClientByClientId } from '#projections/org-credentials/index.js';
import { hashToken } from '#shared/auth/index.js';
import { AppError, type ErrorCode } from '#shared/errors.js';
import { toErrorResponse } from '#shared/http/errors.js';
import { hasMalformedEscapes, isUnstorable } from '#shared/http/input-hygiene.js';
import { CREDENTIAL_SCOPES, type CredentialScope } from '#shared/http/principal.js';
import type { Platform } from '../../../platform.js';
import { sameHash, type CredentialService, type ResolveWorkspace } from '../service.js';

/** RFC 6749 section 5.2 error values, by the platform code that carries them. */
const OAUTH_ERRORS: Partial<Record<ErrorCode, string>> = {
  INVALID_REQUEST: 'invalid_request',
  INVALID_CLIENT: 'invalid_client',
  UNAUTHORIZED_CLIENT: 'unauthorized_client',
  UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
  INVALID_SCOPE: 'invalid_scope',
};

const oauthError = (code: keyof typeof OAUTH_ERRORS & ErrorCode, message: string): AppError =>
  new AppError(code, message, code === 'INVALID_CLIENT' ? { headers: { 'www-authenticate': 'Basic realm="oauth", charset="UTF-8"' } } : {});

const OAuthErrorBody = z
  .object({
    error: z
      .enum(['invalid_request', 'invalid_client', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'server_error', 'temporarily_unavailable'])
      .describe('RFC 6749 section 5.2; any other refusal (unstorable text, throttling) is invalid_request with its own status and code, a failure of the platform server_error or temporarily_unavailable'),
    error_description: z.string(),
    statusCode: z.number().int(),
    code: z.string().describe('The platform code (docs/api-conventions.md, "Errors")'),
    message: z.string(),
    details: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'OAuthError' });

const TokenRequest = z.object({
  grant_type: z.string().max(100).optional().describe('Must be "client_credentials"').meta({ examples: ['client_credentials'] }),
  client_id: z.string().max(200).optional().describe('Unless sent with HTTP Basic'),
  client_secret: z.string().max(500).optional().describe('Unless sent with HTTP Basic'),
  scope: z.string().max(200).optional().describe("Space-separated, a subset of the client's scopes; all of them when absent"),
});

const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Seconds'),
    scope: z.string().describe('Space-separated scopes granted'),
  })
  .meta({ id: 'OAuthTokenResponse' });

/** Parses a form body; a parameter sent twice becomes an array, which the schema then refuses (RFC 6749 section 3.2). */
function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(body)) {
    const seen = out[k];
    out[k] = seen === undefined ? v : Array.isArray(seen) ? [...seen, v] : [seen, v];
  }
  return out;
}

/** `client_id` and `client_secret` from `Authorization: Basic` (RFC 6749 section 2.3.1: each form-urlencoded first). */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | null {
  if (header === undefined) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!m) throw oauthError('INVALID_REQUEST', 'Only HTTP Basic client authentication is accepted in the Authorization header');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw oauthError('INVALID_REQUEST', 'Malformed HTTP Basic credentials');
  const unform = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw oauthError('INVALID_REQUEST', 'Malformed HTTP Basic credentials');
    }
  };
  const clientId = unform(decoded.slice(0, colon));
  const clientSecret = unform(decoded.slice(colon + 1));
  if (isUnstorable(clientId) || isUnstorable(clientSecret)) throw oauthError('INVALID_REQUEST', 'Malformed HTTP Basic credentials: a NUL character or an unpaired surrogate');
  return { clientId, clientSecret };
}

/** Sends an error as RFC 6749 section 5.2 wants it, with the platform's fields beside. */
function sendOAuthError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  let error = err;
  const fe = err as FastifyError;
  if (!(err instanceof AppError) && fe && typeof fe === 'object' && (fe.validation || (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500))) {
    // Bad body, unknown content type, repeated parameter, body too large: all a malformed request.
    const message = fe.validation
      ? `Malformed request: ${fe.validation.map((v) => `${String(v.instancePath ?? '').replace(/^\//, '') || 'body'} ${v.message ?? 'is invalid'}`).join('; ')}`
      : fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'Send the parameters as application/x-www-form-urlencoded (or JSON)'
        : fe.message;
    error = oauthError('INVALID_REQUEST', message);
  }
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (error instanceof AppError && OAUTH_ERRORS[error.code]) {
    if (error.headers) reply.headers(error.headers);
    return reply
      .code(error.statusCode)
      .type('application/json; charset=utf-8')
      .send({ error: OAUTH_ERRORS[error.code], error_description: error.message, statusCode: error.statusCode, code: error.code, message: error.message });
  }
  // Every other answer (unstorable text, throttling, a store down, a fault) keeps its status and code
  // in the same shape, so a client of this endpoint reads one format.
  const { status, body, headers, internal } = toErrorResponse(error);
  if (internal) request.log.error({ err: error }, 'request failed');
  if (headers) reply.headers(headers);
  const oauth = status < 500 ? 'invalid_request' : status === 503 ? 'temporarily_unavailable' : 'server_error';
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ error: oauth, error_description: body.message, statusCode: status, code: body.code, message: body.message, ...(body.details ? { details: body.details } : {}) });
}

/**
 * `POST /oauth/token` (RFC 6749 section 4.4, client credentials): the client authenticates with HTTP
 * Basic or `client_id` + `client_secret` in the body (form-urlencoded or JSON) and receives a
 * short-lived token for the `/v1` set. Errors carry RFC 6749's `error` and `error_description` and the
 * platform's `statusCode`, `code` and `message`.
 */
export async function tokenRoutes(app: FastifyInstance, opts: { platform: Platform; credentials: CredentialService; resolveWorkspace: ResolveWorkspace }): Promise<void> {
  const { platform, credentials, resolveWorkspace } = opts;
  // Only in this plugin: everywhere else a form body stays a 415.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    // A decoder would silently replace escapes that are not UTF-8 (an encoded lone surrogate): refused as the query's are.
    if (hasMalformedEscapes(body as string)) {
      const message = 'Holds percent-escapes that are not UTF-8 text (an encoded unpaired surrogate, say), which cannot be stored';
      return done(new AppError('INVALID_INPUT', `Invalid text in body: ${message.toLowerCase()}`, { details: [{ path: 'body', message }] }), undefined);
    }
    done(null, parseForm(body as string));
  });
  app.setErrorHandler((err, request, reply) => sendOAuthError(request, reply, err));

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/oauth/token', {
    bodyLimit: 16 * 1024,
    schema: {
      tags: ['/v1 credentials: OAuth clients'],
      summary: 'OAuth 2.0 client credentials grant: a token for the /v1 set (RFC 6749 section 4.4)',
      description:
        'Form-urlencoded (or JSON) `grant_type=client_credentials`, the client authenticated by HTTP Basic or `client_id` and `client_secret`. ' +
        'The token acts as the user who created the client, in its workspace, limited to the granted scopes, and only on /v1. ' +
        `Errors: 400 invalid_request, unsupported_grant_type, invalid_scope, unauthorized_client (the client's user can no longer enter its workspace); 401 invalid_client.`,
      consumes: ['application/x-www-form-urlencoded', 'application/json'],
      body: TokenRequest.optional(),
      security: [],
      response: { 200: TokenResponse, 400: OAuthErrorBody, 401: OAuthErrorBody, '4XX': OAuthErrorBody, '5XX': OAuthErrorBody },
    },
    handler: async (request, reply) => {
      const body = request.body ?? {};
      const basic = basicCredentials(request.headers.authorization);
      if (!body.grant_type) throw oauthError('INVALID_REQUEST', 'grant_type is required');
      if (body.grant_type !== 'client_credentials') {
        throw oauthError('UNSUPPORTED_GRANT_TYPE', `grant_type "${body.grant_type}" is not supported; use client_credentials`);
      }
      if (basic && body.client_secret !== undefined) {
        throw oauthError('INVALID_REQUEST', 'Authenticate the client one way: HTTP Basic or client_secret in the body, not both');
      }
      if (basic && body.client_id !== undefined && body.client_id !== basic.clientId) {
        throw oauthError('INVALID_REQUEST', 'client_id in the body differs from the HTTP Basic client');
      }
      const clientId = basic?.clientId ?? body.client_id;
      const clientSecret = basic?.clientSecret ?? body.client_secret;
      if (!clientId || !clientSecret) throw oauthError('INVALID_CLIENT', 'Client authentication required: HTTP Basic, or client_id and client_secret');

      const client = clientId.length <= 200 ? await oauthClientByClientId(platform.db, clientId) : null;
      const presented = hashToken(clientSecret);
      if (!client || !sameHash(presented, client.secretHash)) throw oauthError('INVALID_CLIENT', 'Unknown client or wrong client secret');

      const workspace = await resolveWorkspace({ userId: client.userId, companyId: client.companyId }, client.workspaceId);
      if (!workspace) throw oauthError('UNAUTHORIZED_CLIENT', "The client's user can no longer enter the client's workspace");

      let scopes: CredentialScope[] = client.scopes;
      if (body.scope !== undefined) {
        const asked = body.scope.split(' ').filter(Boolean);
        if (asked.length === 0) throw oauthError('INVALID_SCOPE', 'scope is empty');
        const unknown = asked.filter((s) => !(CREDENTIAL_SCOPES as readonly string[]).includes(s));
        if (unknown.length > 0) throw oauthError('INVALID_SCOPE', `Unknown scope ${unknown.join(', ')}; scopes are ${CREDENTIAL_SCOPES.join(', ')}`);
        // `admin` allows everything, so a client with it may ask for any narrower scope.
        const beyond = asked.filter((s) => !client.scopes.includes(s as CredentialScope) && !client.scopes.includes('admin'));
        if (beyond.length > 0) throw oauthError('INVALID_SCOPE', `Scope ${beyond.join(', ')} is beyond this client's scopes (${client.scopes.join(' ')})`);
        scopes = CREDENTIAL_SCOPES.filter((s) => asked.includes(s));
      }

      const issued = await credentials.clientTokens.issueClientToken({
        clientId: client.clientId,
        clientRecordId: client.id,
        userId: client.userId,
        companyId: client.companyId,
        workspaceId: client.workspaceId,
        scopes,
      });
      await credentials.used(client.id);
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return { access_token: issued.token, token_type: 'Bearer' as const, expires_in: issued.expiresInSeconds, scope: scopes.join(' ') };
    },
  });
}

