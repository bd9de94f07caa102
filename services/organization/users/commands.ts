import type { FastifyRequest } from 'fastify';
import { getUserByEmail, usernameTaken, userImage, type RoleRow, type UserView } from '#projections/org-directory/index.js';
import { emailClaimStream, userStream } from '#events/organization/users.js';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { CommandContext } from '#shared/es/decider.js';
import { requirePrincipal } from '#shared/http/principal.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import { OrgWriter } from '../commands.js';
import { assertMayGrantRoles } from '../roles/grant.js';
import { emailClaimDecider, userDecider } from './decide.js';
import { claimFreeUsername } from './usernames.js';

// The organization's user commands that routes of more than one module call (`/api/v1/users`, `/v1/users`):
// they take a command context and plain values, never a request.

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
export const inviteKey = (hash: string) => `org:invite:${hash}`;

/** Who invites: their company and the permission keys they hold (they may grant only those). */
export interface Inviter {
  userId: number;
  companyId: number;
  permissions: ReadonlySet<string>;
}

/** The signed-in caller of a request as an inviter. */
export async function inviterOf(request: FastifyRequest): Promise<Inviter> {
  const p = requirePrincipal(request);
  return { userId: p.userId, companyId: p.companyId, permissions: await request.permissions() };
}

/** Ends a user's tokens (the organization's access revocations). */
export interface TokenRevocations {
  revokeUserTokensBefore(userId: number, at: Date): Promise<unknown>;
}

/**
 * Invites `email` into the caller's company with `roles` (checked by the caller: the company's roles,
 * and only keys the caller holds): a new passive user, or a passive user invited again with new roles
 * and a new link. Shared by `/api/v1/users/invite` and `/v1/users/invite`.
 */
export async function inviteUser(
  platform: Platform,
  inviter: Inviter,
  ctx: CommandContext,
  email: string,
  roles: readonly RoleRow[],
): Promise<{ userId: number; created: boolean }> {
  const { db } = platform;
  const writer = new OrgWriter(platform);
  const p = inviter;
  assertMayGrantRoles(inviter.permissions, roles);
  const existing = await getUserByEmail(db, p.companyId, email);
  if (existing && existing.status === 'passive') {
    const replaced = await writer.run(userStream(existing.id), userDecider, { type: 'ReplaceRoles', companyId: p.companyId, roleIds: roles.map((x) => x.id) }, ctx);
    await writer.settle(replaced);
    await sendInvitation(platform, existing.id, email);
    return { userId: existing.id, created: false };
  }
  const userId = await allocateId(db, 'user');
  await writer.run(emailClaimStream(email), emailClaimDecider, { type: 'ClaimEmail', email, userId }, ctx);
  const name = await claimFreeUsername(db, writer, email, userId, ctx);
  const result = await writer.run(
    userStream(userId),
    userDecider,
    { type: 'InviteUser', userId, companyId: p.companyId, email, username: name, roleIds: roles.map((x) => x.id).sort((a, b) => a - b), invitedBy: p.userId },
    ctx,
  );
  await writer.settle(result);
  await sendInvitation(platform, userId, email);
  return { userId, created: true };
}

/** Mails a single-use activation token (stored hashed, with an expiry). */
async function sendInvitation(platform: Platform, userId: number, email: string): Promise<void> {
  const token = randomToken(32);
  await platform.kv.set(inviteKey(hashToken(token)), String(userId), { ttlMs: INVITATION_TTL_MS });
  const link = new URL(`/activate?token=${encodeURIComponent(token)}`, platform.config.APP_URL).toString();
  await platform.mailer.send({
    to: email,
    subject: 'You are invited to the QA Platform',
    text: `You have been invited to the QA Platform.\n\nChoose your password here (valid ${INVITATION_TTL_MS / 86_400_000} days, once): ${link}\n\nToken: ${token}\n`,
  });
}

/** Changes name, username, title, phone of a user of the caller's company (permission checked by the caller). */
export async function updateUser(
  platform: Platform,
  ctx: CommandContext,
  user: UserView,
  changes: { name?: string | undefined; username?: string | undefined; title?: string | null | undefined; phone?: string | null | undefined },
): Promise<void> {
  const writer = new OrgWriter(platform);
  if (changes.username !== undefined && (await usernameTaken(platform.db, changes.username, user.id))) {
    throw new AppError('NAME_TAKEN', `Username "${changes.username}" already exists`);
  }
  const result = await writer.renamed('username', 'Username', user.id, user.username, changes.username, ctx, () =>
    writer.run(userStream(user.id), userDecider, { type: 'UpdateUser', companyId: user.companyId, changes: definedOnly(changes) }, ctx),
  );
  await writer.settle(result);
}

/**
 * Deletes a user of the caller's company (permission and self checks by the caller): their tokens stop
 * working, the e-mail address and username are freed, the profile image is removed.
 */
export async function deleteUser(platform: Platform, revocations: TokenRevocations, ctx: CommandContext, user: UserView): Promise<void> {
  const writer = new OrgWriter(platform);
  const image = await userImage(platform.db, user.companyId, user.id);
  const result = await writer.run(userStream(user.id), userDecider, { type: 'DeleteUser', companyId: user.companyId }, ctx);
  await revocations.revokeUserTokensBefore(user.id, platform.now());
  await writer.run(emailClaimStream(user.email), emailClaimDecider, { type: 'ReleaseEmail', email: user.email, userId: user.id }, ctx);
  await writer.releaseName('username', user.username, user.id, ctx);
  if (image) await platform.blobs.delete(image.key);
  await writer.settle(result);
}

/** Drops keys whose value is undefined (zod leaves optional keys absent or undefined). */
export function definedOnly<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
