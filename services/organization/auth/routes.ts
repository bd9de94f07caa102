import { AppError, found } from '#shared/errors.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '#shared/http/principal.js';
import { pageSchema } from '#shared/paging.js';
import { PageQuery, SignInSession, sessionView } from '../http.js';
import type { Platform } from '../../platform.js';
import type { AuthService, ClientInfo } from './service.js';

const TokenPair = z
  .object({
    token: z.string().describe('Signed JWT access token'),
    expiresIn: z.string().describe('Absolute expiry of the access token, server local time, no zone'),
    refreshToken: z.string().describe('Opaque refresh token; single use'),
  })
  .meta({ id: 'TokenPair' });

const password = z.string().min(8, 'at least 8 characters').max(256);
const email = z.email().max(254);

const LoginRequest = z
  .object({
    username: z.string().min(1).max(254).optional().describe('Username or e-mail address'),
    email: z.string().min(1).max(254).optional().describe('Alias of username'),
    password: z.string().min(1).max(256),
    providerId: z.number().int().positive().max(2_147_483_647).optional().describe('An LDAP identity provider: sign in with its directory username and password'),
  })
  .refine((b) => b.username !== undefined || b.email !== undefined, { message: 'username or email is required', path: ['username'] })
  .meta({ id: 'LoginRequest' });

const Message = z.object({ message: z.string() });

const SessionId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'a sign-in session id (UUID)');

/** The caller of a route only a signed-in person (a platform access token) may use. */
function requireAccessToken(request: FastifyRequest) {
  const p = requirePrincipal(request);
  if (p.credential !== undefined && p.credential !== 'access-token') throw new AppError('UNAUTHORIZED', 'Use a platform access token (POST /api/v1/auth/login) here');
  return p;
}

export const clientOf = (request: FastifyRequest): ClientInfo => ({
  address: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 512) : null,
  requestId: request.id,
});

/**
 * Sign-in, refresh, logout, sign-up, password reset, switch workspace, and the JWKS;
 * and the caller's sign-in sessions (list, end one).
 */
export async function authRoutes(
  app: FastifyInstance,
  opts: { platform: Platform; auth: AuthService; directorySignIn?: (providerId: number, username: string, password: string, client: ClientInfo) => Promise<z.output<typeof TokenPair>> },
): Promise<void> {
  const { auth, platform } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Authentication'];

  r.post('/auth/login', {
    schema: { tags, summary: 'Sign in with username or e-mail', security: [], body: LoginRequest, response: { 200: TokenPair } },
    handler: async (request) => {
      const login = (request.body.username ?? request.body.email)!;
      if (request.body.providerId !== undefined && opts.directorySignIn) return opts.directorySignIn(request.body.providerId, login, request.body.password, clientOf(request));
      return auth.login(login, request.body.password, clientOf(request));
    },
  });

  r.post('/auth/refresh', {
    schema: {
      tags,
      summary: 'Exchange a refresh token for a new token pair',
      security: [],
      body: z.object({ refreshToken: z.string().min(1).max(512) }),
      response: { 200: TokenPair },
    },
    handler: async (request) => auth.refresh(request.body.refreshToken, clientOf(request)),
  });

  r.post('/auth/logout', {
    schema: {
      tags,
      summary: 'End the sign-in session of this token: every access token of it (switched workspaces included) and its refresh tokens stop working; other sign-ins go on',
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const p = requireAccessToken(request);
      await auth.logout({ userId: p.userId, companyId: p.companyId, jti: p.jti, exp: p.exp, ...(p.sid ? { sid: p.sid } : {}) });
      return reply.code(204).send(null);
    },
  });

  r.get('/auth/sessions', {
    schema: {
      tags,
      summary: 'Your active sign-in sessions (neither ended nor expired), the latest used first; `current` marks the one of this token',
      querystring: PageQuery,
      response: { 200: pageSchema(SignInSession, 'SignInSessionPage') },
    },
    handler: async (request) => {
      const p = requireAccessToken(request);
      const page = await auth.sessions.list(p.userId, request.query.page, request.query.size);
      return { ...page, content: page.content.map((s) => sessionView(s, p.sid)) };
    },
  });

  r.delete('/auth/sessions/:sessionId', {
    schema: {
      tags,
      summary: 'End one of your sign-in sessions: its access and refresh tokens stop working at once (404 for an ended, expired or unknown one)',
      params: z.object({ sessionId: SessionId }),
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const p = requireAccessToken(request);
      const session = found(await auth.sessions.findActive(p.userId, request.params.sessionId), 'Sign-in session not found');
      const reason = session.id === p.sid ? 'logout' : 'ended_by_user';
      await auth.sessions.end({ sessionId: session.id, userId: p.userId }, reason, { actorId: p.userId, companyId: p.companyId });
      return reply.code(204).send(null);
    },
  });

  r.post('/auth/signup', {
    schema: {
      tags,
      summary: 'Register a company with its administrator (403 SIGNUP_DISABLED when the operator switched it off; 409 DOMAIN_TAKEN at an address of a domain a company verified)',
      security: [],
      body: z.object({
        email,
        password,
        name: z.string().trim().min(1).max(128),
        companyName: z.string().trim().min(2).max(128),
      }),
      response: { 201: TokenPair },
    },
    handler: async (request, reply) => {
      if (!platform.config.PUBLIC_SIGNUP) throw new AppError('SIGNUP_DISABLED', 'Sign-up is switched off on this installation; ask an administrator for an invitation');
      await auth.sendLimits.chargeAddress('signup', request.ip);
      const { pair } = await auth.signup(request.body, clientOf(request));
      return reply.code(201).send(pair);
    },
  });

  r.post('/auth/forgot-password', {
    schema: {
      tags,
      summary: 'Mail a password-reset link (answers the same whether or not the account exists)',
      security: [],
      body: z.object({ email }),
      response: { 202: Message },
    },
    handler: async (request, reply) => {
      await auth.forgotPassword(request.body.email, clientOf(request));
      return reply.code(202).send({ message: 'If the address belongs to an account, a reset link is on its way' });
    },
  });

  r.post('/auth/reset-password', {
    schema: {
      tags,
      summary: 'Set a new password with a reset token',
      security: [],
      body: z.object({ token: z.string().min(1).max(512), password }),
      response: { 200: Message },
    },
    handler: async (request) => {
      await auth.resetPassword(request.body.token, request.body.password);
      return { message: 'Password changed' };
    },
  });

  r.post('/auth/switch-workspace/:workspaceId', {
    schema: {
      tags,
      summary: 'Re-issue the token with another active workspace',
      params: z.object({ workspaceId: z.coerce.number().int().positive().max(2_147_483_647) }),
      response: { 200: TokenPair },
    },
    handler: async (request) => {
      const p = requirePrincipal(request);
      return auth.switchWorkspace(
        { userId: p.userId, companyId: p.companyId, issuedAtMs: p.issuedAtMs, ...(p.sid ? { sid: p.sid } : {}) },
        request.params.workspaceId,
      );
    },
  });

  r.get('/auth/jwks', {
    schema: { tags, summary: 'Public keys that verify access tokens', security: [] },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return platform.keys.publicJwks;
    },
  });
}
