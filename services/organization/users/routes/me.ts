import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyAdministrators, findUserById, usernameTaken } from '#projections/org-directory/index.js';
import { verifyPassword } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { callerOf, User } from '../../http.js';
import { password, tags, userGuards, username, type UsersOptions } from '../http.js';

/** The signed-in account: itself, whom to ask for access, the session's validity, usernames, its own password. */
export async function meRoutes(app: FastifyInstance, opts: UsersOptions): Promise<void> {
  const { db } = opts.platform;
  const { userOr404, changePassword } = userGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/users/me', {
    schema: { tags, summary: 'The signed-in account', response: { 200: User } },
    handler: async (request) => {
      const p = callerOf(request);
      return userOr404(p.companyId, p.userId);
    },
  });

  r.get('/users/me/administrators', {
    schema: {
      tags,
      summary: "Your company's active administrators (name, e-mail): whom to ask for access to a workspace. Any signed-in user",
      response: { 200: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() }).meta({ id: 'CompanyAdministrator' })) },
    },
    handler: async (request) => companyAdministrators(db, callerOf(request).companyId),
  });

  r.get('/users/validate', {
    schema: {
      tags,
      summary: 'Validate the current session',
      response: { 200: z.object({ valid: z.literal(true), userId: z.number().int(), companyId: z.number().int(), workspaceId: z.number().int().nullable(), expiresAt: z.string() }) },
    },
    handler: async (request) => {
      const p = callerOf(request);
      await userOr404(p.companyId, p.userId);
      return { valid: true as const, userId: p.userId, companyId: p.companyId, workspaceId: request.workspace?.id ?? null, expiresAt: new Date(p.exp * 1000).toISOString() };
    },
  });

  r.post('/users/:username/available', {
    schema: {
      tags,
      summary: 'Whether a username is free',
      params: z.object({ username }),
      response: { 200: z.object({ username: z.string(), available: z.boolean() }) },
    },
    handler: async (request) => {
      callerOf(request);
      const name = request.params.username;
      return { username: name, available: !(await usernameTaken(db, name, callerOf(request).userId)) };
    },
  });

  r.put('/users/password', {
    schema: {
      tags,
      summary: 'Change your own password; every token of yours stops working, so sign in again',
      body: z.object({ currentPassword: z.string().min(1).max(256), newPassword: password }),
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      const p = callerOf(request);
      const user = await findUserById(db, p.userId);
      if (!user || user.companyId !== p.companyId) throw new AppError('NOT_FOUND', 'User not found');
      if (!user.passwordHash || !(await verifyPassword(request.body.currentPassword, user.passwordHash))) {
        throw new AppError('INVALID_CURRENT_PASSWORD', 'The current password is not correct');
      }
      await changePassword(request, p.companyId, user.id, request.body.newPassword, 'self');
      return reply.code(204).send(null);
    },
  });
}
