import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listSignIns } from '#projections/sign-in-log/index.js';
import { callerOf, IdParams, intId, PageQuery, pageSchema, SignInSession, sessionView } from '../../http.js';
import { tags, userGuards, type UsersOptions } from '../http.js';

const SignInEntry = z.object({
  at: z.string(),
  success: z.boolean(),
  reason: z.string().nullable(),
  address: z.string(),
  userAgent: z.string().nullable(),
  provider: z
    .object({ id: z.number().int(), type: z.enum(['oidc', 'saml', 'ldap']), name: z.string() })
    .nullable()
    .describe('The identity provider the sign-in went through; null for a password sign-in'),
});

/** A user's sign-in sessions (list, sign out everywhere) and sign-in attempts. */
export async function signInRoutes(app: FastifyInstance, opts: UsersOptions): Promise<void> {
  const { platform, auth } = opts;
  const { selfOr } = userGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/users/:id/sessions', {
    schema: {
      tags,
      summary: "A user's active sign-in sessions (user agent, address, created, last use), the latest used first (USER_READ, or yourself)",
      params: IdParams,
      querystring: PageQuery,
      response: { 200: pageSchema(SignInSession, 'UserSignInSessionPage') },
    },
    handler: async (request) => {
      const p = callerOf(request);
      await selfOr(request, request.params.id, 'USER_READ');
      const page = await auth.sessions.list(request.params.id, request.query.page, request.query.size);
      return { ...page, content: page.content.map((s) => sessionView(s, p.sid)) };
    },
  });

  r.post('/users/:id/sign-out-everywhere', {
    schema: {
      tags,
      summary: "Sign a user out everywhere: every sign-in session of theirs ends, each access and refresh token stops working at once (USER_MANAGE, or yourself)",
      params: IdParams,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const p = callerOf(request);
      const user = await selfOr(request, request.params.id, 'USER_MANAGE');
      await auth.sessions.endAll(user.id, { actorId: p.userId, companyId: p.companyId });
      return reply.code(204).send(null);
    },
  });

  r.get('/users/user-login-logs/:userId', {
    schema: {
      tags,
      summary: "A user's sign-in attempts, newest first: time, address, user agent, success or reason, the identity provider (USER_READ, or yourself)",
      params: z.object({ userId: intId }),
      querystring: PageQuery,
      response: { 200: pageSchema(SignInEntry, 'SignInPage') },
    },
    handler: async (request) => {
      const p = callerOf(request);
      await selfOr(request, request.params.userId, 'USER_READ');
      // Sign-ins are appended without waiting for the log's read model; catch it up to now.
      await platform.readModels.waitFor(await platform.store.headPosition(), { names: ['sign-in-log'] });
      return listSignIns(platform.db, p.companyId, request.params.userId, request.query.page, request.query.size);
    },
  });
}
