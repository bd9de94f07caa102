import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findUserById } from '#projections/org-directory/index.js';
import { hashPassword } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import type { ProfileImage } from '#events/organization/users.js';
import { callerOf, intId, requestActor, User, validationError } from '../../http.js';
import { requireRoles } from '../../roles/index.js';
import { MAX_PROFILE_IMAGE_BYTES, profileImageKey, readMultipart, withImageUploads } from '../images.js';
import { activateUser, inviterOf, inviteUser, takeInvitation } from '../service.js';
import { password, personName, tags, userGuards, type UsersOptions } from '../http.js';
import { commandContext } from '#shared/es/index.js';

const InviteAnswer = User.extend({ resent: z.boolean().describe('Whether the address had a pending invitation that was sent again') }).meta({ id: 'InvitedUser' });
const ActivationBody = z.object({ token: z.string().min(1).max(512), password, name: personName.optional() });

/** Invitations by e-mail, and their acceptance (JSON, or multipart with a profile image). */
export async function invitationRoutes(app: FastifyInstance, opts: UsersOptions): Promise<void> {
  const { platform, auth } = opts;
  const { db } = platform;
  const { userOr404 } = userGuards(opts);
  const r = app.withTypeProvider<ZodTypeProvider>();

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
      const { userId, created } = await inviteUser(platform, await inviterOf(request), commandContext(platform, requestActor(request)), email, grants);
      return reply.code(created ? 201 : 200).send({ ...(await userOr404(p.companyId, userId)), resent: !created });
    },
  });

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
    const context = commandContext(platform, requestActor(request, { userId: user.id, companyId: user.companyId }));
    await activateUser(platform, context, user.id, { passwordHash, ...(name ? { name } : {}), ...(stored ? { image: stored } : {}) });
    return reply.code(200).send(await userOr404(user.companyId, user.id));
  };
  const activateSchema = {
    tags,
    summary: 'Accept an invitation: JSON {token, password, name?}, or multipart/form-data with those fields and a profileImage part (PNG, JPEG or WebP, at most 2 MiB)',
    security: [],
    response: { 200: User },
  };
  await withImageUploads(app, (u) => {
    u.put('/users/activate', { schema: activateSchema, handler: activate });
    u.post('/users/activate', { schema: activateSchema, handler: activate });
  });
}
