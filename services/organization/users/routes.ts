import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyAdministrators, getUser, getUserByEmail, listUsers, userFilterOptions, userImage, usernameTaken, findUserById, type UserView } from '#projections/org-directory/index.js';
import { listSignIns } from '#projections/sign-in-log/index.js';
import { hashPassword, verifyPassword } from '#shared/auth/index.js';
import { AppError, found } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { SignInSession, sessionView } from '../auth/routes.js';
import type { AuthService } from '../auth/service.js';
import { OrgWriter } from '../commands.js';
import { callerOf, IdParams, intId, PageQuery, pageSchema, requireSelfOr, User, validationError } from '../http.js';
import { assertMayGrantRoles, requireRoles } from '../roles/grant.js';
import { userDecider } from './decide.js';
import { userStream, type ProfileImage } from '#events/organization/users.js';
import { MAX_PROFILE_IMAGE_BYTES, profileImageKey, readMultipart } from './images.js';
import { USERNAME_PATTERN } from './usernames.js';
import { definedOnly, deleteUser, grantInvitedWorkspaces, inviterOf, inviteUser, takeInvitation, updateUser } from './commands.js';

const tags = ['Users'];
const password = z.string().min(8, 'at least 8 characters').max(256);
const username = z.string().trim().regex(USERNAME_PATTERN, '2-64 letters, digits, dots, dashes or underscores');
const personName = z.string().trim().min(1).max(128);
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

const InviteAnswer = User.extend({ resent: z.boolean().describe('Whether the address had a pending invitation that was sent again') }).meta({ id: 'InvitedUser' });
const ActivationBody = z.object({ token: z.string().min(1).max(512), password, name: personName.optional() });
const SignInEntry = z.object({ at: z.string(), success: z.boolean(), reason: z.string().nullable(), address: z.string(), userAgent: z.string().nullable() });

const UserListQuery = PageQuery.extend({
  search: z.string().trim().max(128).optional().describe('Part of the name, e-mail or username'),
  status: z.enum(['passive', 'active', 'deactivated']).optional(),
  roleId: intId.optional(),
  teamId: intId.optional(),
  isAdmin: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  sortBy: z.enum(['id', 'name', 'email', 'username', 'createdAt', 'lastSignInAt']).default('id'),
  sortDir: z.enum(['asc', 'desc']).default('asc'),
});

/** The company's users, invitations and activation, status, roles, passwords, images, sign-in logs. */
export async function userRoutes(app: FastifyInstance, opts: { platform: Platform; auth: AuthService }): Promise<void> {
  const { platform, auth } = opts;
  const { db } = platform;
  const writer = new OrgWriter(platform);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** The user of the caller's company, or 404 (also for another company's id). */
  const userOr404 = async (companyId: number, userId: number): Promise<UserView> => {
    return found(await getUser(db, companyId, userId), 'User not found');
  };

  /** Refuses what a user must not do to their own account (lock-outs). */
  const notSelf = (request: FastifyRequest, userId: number, what: string) => {
    if (callerOf(request).userId === userId) throw new AppError('CONFLICT', `You cannot ${what} your own account`);
  };

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

  r.get('/users', {
    schema: { tags, summary: 'Users of the company, filtered and paged (USER_READ)', querystring: UserListQuery, response: { 200: pageSchema(User, 'UserPage') } },
    handler: async (request) => {
      await requirePermission(request, 'USER_READ');
      const q = request.query;
      return listUsers(db, callerOf(request).companyId, {
        ...(q.search ? { search: q.search } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.roleId !== undefined ? { roleId: q.roleId } : {}),
        ...(q.teamId !== undefined ? { teamId: q.teamId } : {}),
        ...(q.isAdmin !== undefined ? { isAdmin: q.isAdmin } : {}),
        sortBy: q.sortBy,
        sortDir: q.sortDir,
        page: q.page,
        size: q.size,
      });
    },
  });

  const Count = z.object({ count: z.number().int() });
  r.get('/users/filter-options', {
    schema: {
      tags,
      summary: 'Values the user list can be filtered by, with counts (USER_READ)',
      response: {
        200: z.object({
          statuses: z.array(Count.extend({ value: z.string() })),
          roles: z.array(Count.extend({ id: z.number().int(), name: z.string() })),
          teams: z.array(Count.extend({ id: z.number().int(), name: z.string() })),
          isAdmin: z.array(Count.extend({ value: z.boolean() })),
        }),
      },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_READ');
      return userFilterOptions(db, callerOf(request).companyId);
    },
  });

  r.get('/users/email', {
    schema: { tags, summary: 'Look a user of the company up by e-mail address (USER_READ)', querystring: z.object({ email: z.email().max(254) }), response: { 200: User } },
    handler: async (request) => {
      await requirePermission(request, 'USER_READ');
      return found(await getUserByEmail(db, callerOf(request).companyId, request.query.email), 'User not found');
    },
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

  r.get('/users/:id', {
    schema: { tags, summary: 'One user (USER_READ, or yourself)', params: IdParams, response: { 200: User } },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      await requireSelfOr(request, user.id, 'USER_READ');
      return user;
    },
  });

  r.post('/users/invite', {
    schema: {
      tags,
      summary:
        'Invite by e-mail: creates a passive user and mails an activation link; workspaceIds are granted on activation (USER_INVITE, and WORKSPACE_MANAGE in each workspace). ' +
        'Inviting a pending user again answers 200 with resent: true and mails a new link (the earlier one stops working); roles and workspaces change only when sent',
      body: z.object({
        email: z.email().max(254),
        roleIds: z.array(intId).max(50).optional().describe('Company roles; on a new invitation absent means none, on a repeated one it keeps the roles'),
        workspaceIds: z.array(intId).max(50).optional().describe("Workspaces of the company the user may enter once activated; on a repeated invitation absent keeps the earlier ones"),
      }),
      response: { 200: InviteAnswer, 201: InviteAnswer },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'USER_INVITE');
      const p = callerOf(request);
      const email = request.body.email.trim();
      const roles = request.body.roleIds ? await requireRoles(db, p.companyId, request.body.roleIds) : undefined;
      const grants = { roles, workspaceIds: request.body.workspaceIds };
      await auth.sendLimits.chargeAddress('mail', request.ip);
      await auth.sendLimits.chargeRecipient(email);
      const { userId, created } = await inviteUser(platform, await inviterOf(request), writer.context(request), email, grants);
      return reply.code(created ? 201 : 200).send({ ...(await userOr404(p.companyId, userId)), resent: !created });
    },
  });

  // Multipart is parsed only where an image may be uploaded.
  await app.register(async (upload) => {
    await upload.register((await import('@fastify/multipart')).default, { limits: { fileSize: MAX_PROFILE_IMAGE_BYTES, files: 1, fields: 10 } });
    const u = upload.withTypeProvider<ZodTypeProvider>();

    const activate = async (request: FastifyRequest, reply: FastifyReply) => {
      let raw: unknown;
      let image: { bytes: Buffer; contentType: string } | null = null;
      if (request.isMultipart()) {
        const body = await readMultipart(request, 'profileImage');
        raw = body.fields;
        image = body.image;
      } else {
        raw = request.body;
      }
      const parsed = ActivationBody.safeParse(raw ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      const { token, name } = parsed.data;
      const passwordHash = await hashPassword(parsed.data.password);
      const userId = await takeInvitation(platform, token);
      if (userId === null) throw new AppError('INVALID_INVITATION_TOKEN', 'Invalid or expired invitation token');
      const user = await findUserById(db, userId);
      if (!user || user.status !== 'passive') throw new AppError('INVALID_INVITATION_TOKEN', 'Invalid or expired invitation token');
      let stored: ProfileImage | undefined;
      if (image) {
        const info = await platform.blobs.put(profileImageKey(user.companyId, user.id), image.bytes, { contentType: image.contentType, maxBytes: MAX_PROFILE_IMAGE_BYTES });
        stored = { key: info.key, contentType: info.contentType, size: info.size, sha256: info.sha256 };
      }
      const context = writer.context(request, { userId: user.id, companyId: user.companyId });
      const result = await writer.run(userStream(user.id), userDecider, { type: 'ActivateUser', passwordHash, ...(name ? { name } : {}), ...(stored ? { image: stored } : {}) }, context);
      await writer.settle(result);
      await grantInvitedWorkspaces(platform, result.state, context);
      return reply.code(200).send(await userOr404(user.companyId, user.id));
    };
    const activateSchema = {
      tags,
      summary: 'Accept an invitation: JSON {token, password, name?}, or multipart/form-data with those fields and a profileImage part (PNG, JPEG or WebP, at most 2 MiB)',
      security: [],
      response: { 200: User },
    };
    u.put('/users/activate', { schema: activateSchema, handler: activate });
    u.post('/users/activate', { schema: activateSchema, handler: activate });

    u.put('/users/:id/image', {
      schema: { tags, summary: 'Set a profile image: multipart/form-data with a profileImage part (yourself, or USER_MANAGE)', params: IdParams, response: { 200: User } },
      handler: async (request) => {
        const p = callerOf(request);
        const user = await userOr404(p.companyId, request.params.id);
        await requireSelfOr(request, user.id, 'USER_MANAGE');
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data');
        const { image } = await readMultipart(request, 'profileImage');
        if (!image) throw new AppError('VALIDATION_FAILED', 'Request validation failed', { details: [{ path: 'profileImage', message: 'Required' }] });
        const info = await platform.blobs.put(profileImageKey(p.companyId, user.id), image.bytes, { contentType: image.contentType, maxBytes: MAX_PROFILE_IMAGE_BYTES });
        const result = await writer.run(
          userStream(user.id),
          userDecider,
          { type: 'SetProfileImage', companyId: p.companyId, image: { key: info.key, contentType: info.contentType, size: info.size, sha256: info.sha256 } },
          writer.context(request),
        );
        await writer.settle(result);
        return userOr404(p.companyId, user.id);
      },
    });
  });

  const UserUpdate = z.object({ name: personName.optional(), username: username.optional(), title: optionalText(128), phone: optionalText(64) });
  r.put('/users/:id', {
    schema: { tags, summary: 'Update name, username, title, phone (yourself, or USER_MANAGE)', params: IdParams, body: UserUpdate, response: { 200: User } },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      await requireSelfOr(request, user.id, 'USER_MANAGE');
      await updateUser(platform, writer.context(request), user, request.body);
      return userOr404(p.companyId, user.id);
    },
  });

  r.put('/users/:id/profile', {
    schema: {
      tags,
      summary: 'Update profile fields: name, title, phone (yourself, or USER_MANAGE)',
      params: IdParams,
      body: UserUpdate.omit({ username: true }),
      response: { 200: User },
    },
    handler: async (request) => {
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      await requireSelfOr(request, user.id, 'USER_MANAGE');
      const result = await writer.run(userStream(user.id), userDecider, { type: 'UpdateUser', companyId: p.companyId, changes: definedOnly(request.body) }, writer.context(request));
      await writer.settle(result);
      return userOr404(p.companyId, user.id);
    },
  });

  r.put('/users/:id/roles', {
    schema: {
      tags,
      summary: "Replace the user's company roles (USER_MANAGE; only roles whose keys you hold yourself can be added)",
      params: IdParams,
      body: z.object({ roleIds: z.array(intId).max(50) }),
      response: { 200: User },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_MANAGE');
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      const roles = await requireRoles(db, p.companyId, request.body.roleIds);
      assertMayGrantRoles(await request.permissions(), roles.filter((role) => !user.roleIds.includes(role.id)));
      const result = await writer.run(userStream(user.id), userDecider, { type: 'ReplaceRoles', companyId: p.companyId, roleIds: roles.map((x) => x.id) }, writer.context(request));
      await writer.settle(result);
      return userOr404(p.companyId, user.id);
    },
  });

  r.put('/users/:id/status', {
    schema: {
      tags,
      summary: 'Activate or deactivate a user; a deactivated user cannot sign in and their tokens stop working at once (USER_MANAGE)',
      params: IdParams,
      body: z.object({ status: z.enum(['active', 'deactivated']) }),
      response: { 200: User },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_MANAGE');
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      notSelf(request, user.id, 'change the status of');
      const command = request.body.status === 'deactivated' ? ({ type: 'DeactivateUser', companyId: p.companyId } as const) : ({ type: 'ReactivateUser', companyId: p.companyId } as const);
      const result = await writer.run(userStream(user.id), userDecider, command, writer.context(request));
      if (command.type === 'DeactivateUser') await auth.revocations.revokeUserTokensBefore(user.id, platform.now());
      await writer.settle(result);
      return userOr404(p.companyId, user.id);
    },
  });

  r.patch('/users/:id/admin', {
    schema: {
      tags,
      summary: 'Grant or revoke company administrator (USER_ADMIN_MANAGE)',
      params: IdParams,
      body: z.object({ isAdmin: z.boolean() }),
      response: { 200: User },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_ADMIN_MANAGE');
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      if (!request.body.isAdmin) notSelf(request, user.id, 'revoke administrator from');
      const result = await writer.run(userStream(user.id), userDecider, { type: 'SetAdmin', companyId: p.companyId, isAdmin: request.body.isAdmin }, writer.context(request));
      await writer.settle(result);
      return userOr404(p.companyId, user.id);
    },
  });

  r.put('/users/:id/companies', {
    schema: {
      tags,
      summary:
        'Change company membership (USER_MANAGE). A user belongs to exactly one company and tenants are walled off, so the only membership a caller can set is their own company',
      params: IdParams,
      body: z.object({ companyId: intId }),
      response: { 200: User },
    },
    handler: async (request) => {
      await requirePermission(request, 'USER_MANAGE');
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      if (request.body.companyId !== p.companyId) throw new AppError('NOT_FOUND', 'Company not found');
      return user;
    },
  });

  r.delete('/users/:id', {
    schema: { tags, summary: 'Delete a user; their tokens stop working and the e-mail address can be invited again (USER_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      await requirePermission(request, 'USER_MANAGE');
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      notSelf(request, user.id, 'delete');
      await deleteUser(platform, auth.revocations, writer.context(request), user);
      return reply.code(204).send(null);
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

  r.put('/users/:id/password', {
    schema: {
      tags,
      summary: "Set another user's password; their tokens stop working (USER_PASSWORD_MANAGE)",
      params: IdParams,
      body: z.object({ password }),
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await requirePermission(request, 'USER_PASSWORD_MANAGE');
      const p = callerOf(request);
      const user = await userOr404(p.companyId, request.params.id);
      await changePassword(request, p.companyId, user.id, request.body.password, 'admin');
      return reply.code(204).send(null);
    },
  });

  async function changePassword(request: FastifyRequest, companyId: number, userId: number, plain: string, reason: 'self' | 'admin') {
    const result = await writer.run(userStream(userId), userDecider, { type: 'ChangePassword', companyId, passwordHash: await hashPassword(plain), reason }, writer.context(request));
    await auth.revocations.revokeUserTokensBefore(userId, platform.now());
    await writer.settle(result);
  }

  r.get('/users/:id/image', {
    schema: { tags, summary: 'The profile image, as stored (USER_READ, or yourself)', params: IdParams },
    handler: async (request, reply) => {
      const p = callerOf(request);
      await userOr404(p.companyId, request.params.id);
      await requireSelfOr(request, request.params.id, 'USER_READ');
      const image = await userImage(db, p.companyId, request.params.id);
      const blob = found(image ? await platform.blobs.get(image.key) : null, 'User has no profile image');
      return reply
        .type(blob.info.contentType)
        .header('content-length', String(blob.info.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=60')
        .header('etag', `"${blob.info.sha256}"`)
        .send(blob.stream);
    },
  });

  r.delete('/users/:id/image', {
    schema: { tags, summary: 'Remove the profile image (yourself, or USER_MANAGE)', params: IdParams, response: { 204: z.null() } },
    handler: async (request, reply) => {
      const p = callerOf(request);
      await userOr404(p.companyId, request.params.id);
      await requireSelfOr(request, request.params.id, 'USER_MANAGE');
      const image = await userImage(db, p.companyId, request.params.id);
      const result = await writer.run(userStream(request.params.id), userDecider, { type: 'RemoveProfileImage', companyId: p.companyId }, writer.context(request));
      if (image) await platform.blobs.delete(image.key);
      await writer.settle(result);
      return reply.code(204).send(null);
    },
  });

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
      await userOr404(p.companyId, request.params.id);
      await requireSelfOr(request, request.params.id, 'USER_READ');
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
      const user = await userOr404(p.companyId, request.params.id);
      await requireSelfOr(request, user.id, 'USER_MANAGE');
      await auth.sessions.endAll(user.id, { actorId: p.userId, companyId: p.companyId, correlationId: request.id });
      return reply.code(204).send(null);
    },
  });

  r.get('/users/user-login-logs/:userId', {
    schema: {
      tags,
      summary: "A user's sign-in attempts, newest first: time, address, user agent, success or reason (USER_READ, or yourself)",
      params: z.object({ userId: intId }),
      querystring: PageQuery,
      response: { 200: pageSchema(SignInEntry, 'SignInPage') },
    },
    handler: async (request) => {
      const p = callerOf(request);
      await userOr404(p.companyId, request.params.userId);
      await requireSelfOr(request, request.params.userId, 'USER_READ');
      // Sign-ins are appended without waiting for the log's read model; catch it up to now.
      await platform.readModels.waitFor(await platform.store.headPosition(), { names: ['sign-in-log'] });
      return listSignIns(db, p.companyId, request.params.userId, request.query.page, request.query.size);
    },
  });
}
