import type { FastifyRequest } from 'fastify';
import { getUserByEmail, getWorkspace, usernameTaken, userImage, type RoleRow, type UserView } from '#projections/org-directory/index.js';
import { emailClaimStream, userStream, type ProfileImage } from '#events/organization/users.js';
import { workspaceStream } from '#events/organization/workspaces.js';
import { hashPassword, hashToken, randomToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { aggregate } from '#shared/es/index.js';
import type { CommandContext } from '#shared/es/index.js';
import { requirePrincipal } from '#shared/http/principal.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import { refuseAddressOfOthers } from '../domains/index.js';
import { OrgNames } from '../claims/index.js';
import { lastWrite, orgAggregate } from '../service.js';
import { assertMayGrantRoles, permissionsOf } from '../roles/index.js';
import { workspaceDecider } from '../workspaces/index.js';
import { emailClaimDecider, userDecider, type UserCommand, type UserState } from './decide.js';
import { claimFreeUsername } from './usernames.js';

// The organization's user commands that routes of more than one module call (`/api/v1/users`, `/v1/users`):
// they take a command context and plain values, never a request.

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
export const inviteKey = (hash: string) => `org:invite:${hash}`;
/** The hash of a user's one live invitation token: a new invitation replaces the earlier link. */
const liveInviteKey = (userId: number) => `org:invite-live:${userId}`;

/** The users' write side: each user, the claim of each e-mail address, and the names (usernames) users hold. */
export function userWrites(platform: Platform) {
  return {
    users: orgAggregate(platform, userDecider, userStream),
    // A claim is not read back: what follows it is.
    emails: aggregate(platform, { decider: emailClaimDecider, stream: emailClaimStream, readModels: [] }),
    names: new OrgNames(platform),
  };
}

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

/** What an invitation grants: company roles (checked by the caller) and workspaces, on activation. */
export interface InvitationGrants {
  /** Absent when inviting a pending user again: their roles stay. */
  roles?: readonly RoleRow[] | undefined;
  /** Absent when inviting a pending user again: the workspaces of the earlier invitation stay. */
  workspaceIds?: readonly number[] | undefined;
}

/**
 * Invites `email` into the inviter's company: a new passive user, or a passive user invited again
 * (roles and workspaces replaced only when given, and a new link that makes the earlier one stop
 * working). Workspaces must be the company's (404), not archived, and the inviter must hold
 * WORKSPACE_MANAGE in each (403). An address of a domain another company has verified is 409
 * DOMAIN_TAKEN: its people are that company's. Shared by `/api/v1/users/invite` and `/v1/users/invite`.
 */
export async function inviteUser(
  platform: Platform,
  inviter: Inviter,
  ctx: CommandContext,
  email: string,
  grants: InvitationGrants,
): Promise<{ userId: number; created: boolean }> {
  const { db } = platform;
  const { users } = userWrites(platform);
  const p = inviter;
  if (grants.roles) assertMayGrantRoles(inviter.permissions, grants.roles);
  const workspaceIds = grants.workspaceIds ? await requireGrantableWorkspaces(platform, inviter, grants.workspaceIds) : undefined;
  await refuseAddressOfOthers(db, p.companyId, email);
  const existing = await getUserByEmail(db, p.companyId, email);
  if (existing && existing.status === 'passive') {
    const results = [];
    if (grants.roles) {
      results.push(await users.run(existing.id, { type: 'ReplaceRoles', companyId: p.companyId, roleIds: grants.roles.map((x) => x.id) }, ctx, { settle: false }));
    }
    results.push(
      await users.run(existing.id, { type: 'ReinviteUser', companyId: p.companyId, invitedBy: p.userId, ...(workspaceIds ? { workspaceIds } : {}) }, ctx, { settle: false }),
    );
    await users.settle(lastWrite(...results));
    await sendInvitation(platform, existing.id, email);
    return { userId: existing.id, created: false };
  }
  const roleIds = (grants.roles ?? []).map((x) => x.id).sort((a, b) => a - b);
  const person = { status: 'invited', origin: 'invitation', companyId: p.companyId, email, roleIds, invitedBy: p.userId, ...(workspaceIds?.length ? { workspaceIds } : {}) } as const;
  const { userId } = await registerUser(platform, person, ctx);
  await sendInvitation(platform, userId, email);
  return { userId, created: true };
}

/** How a person came to a company. */
export type UserOrigin = 'invitation' | 'sign-up' | 'sso' | 'scim';

/**
 * A person to create in a company. Invited, they have no name or password until they take the
 * invitation; active, they have both (a sign-up's password, or one nobody knows for a person an
 * identity provider or SCIM vouches for: they sign in there, or set one by a reset).
 */
export type NewPerson = {
  companyId: number;
  email: string;
  /** Company roles (the caller checked that they may be given). */
  roleIds: readonly number[];
} & (
  | { status: 'invited'; origin: 'invitation'; invitedBy: number; workspaceIds?: readonly number[] }
  | { status: 'active'; origin: 'sign-up'; name: string; passwordHash: string }
  | { status: 'active'; origin: 'sso' | 'scim'; name: string }
);

export interface RegisterOptions {
  /** The person's id when the caller made it already (a sign-up's context names them as its actor). */
  userId?: number;
  /**
   * What must exist before the person, once the address is theirs (a sign-up's company, roles and
   * workspace): run after the claim, so a lost claim creates none of it. It may name the person's roles.
   */
  afterClaim?: (userId: number) => Promise<{ roleIds?: readonly number[] } | void>;
}

/**
 * The one way a person is created, whether invited, signing up, provisioned by an identity provider or
 * by SCIM: the e-mail address claimed first (another account's address is 409 EMAIL_TAKEN, and of two
 * concurrent creations with one address exactly one makes a person, the other nothing), a free
 * username, then the person (`UserInvited` or `UserRegistered`). Answers once the directory shows them.
 * A sign-up's first person is the company's administrator.
 */
export async function registerUser(
  platform: Platform,
  person: NewPerson,
  context: CommandContext,
  options: RegisterOptions = {},
): Promise<{ userId: number; username: string; position: bigint | null }> {
  const { db } = platform;
  const { users, emails, names } = userWrites(platform);
  const { companyId, email } = person;
  const ctx = { ...context, companyId };
  const userId = options.userId ?? (await allocateId(db, 'user'));
  await emails.run(email, { type: 'ClaimEmail', email, userId }, ctx, { settle: false });
  const roleIds = [...((await options.afterClaim?.(userId))?.roleIds ?? person.roleIds)];
  const username = await claimFreeUsername(db, names, email, userId, ctx);
  const base = { userId, companyId, email, username, roleIds };
  const command: UserCommand =
    person.status === 'invited'
      ? { type: 'InviteUser', ...base, invitedBy: person.invitedBy, ...(person.workspaceIds?.length ? { workspaceIds: [...person.workspaceIds] } : {}) }
      : {
          type: 'RegisterUser',
          ...base,
          name: person.name.trim() || username,
          passwordHash: person.origin === 'sign-up' ? person.passwordHash : await hashPassword(randomToken(32)),
          isAdmin: person.origin === 'sign-up',
          roles: person.origin === 'sign-up' ? ['Admin'] : [],
        };
  const result = await users.run(userId, command, ctx);
  return { userId, username, position: result.position };
}

/** Workspaces an inviter may grant: the company's (else 404), not archived, with WORKSPACE_MANAGE there (else 403). Sorted, unique. */
async function requireGrantableWorkspaces(platform: Platform, inviter: Inviter, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  for (const id of unique) {
    const ws = await getWorkspace(platform.db, inviter.companyId, id);
    if (!ws) throw new AppError('NOT_FOUND', `Workspace ${id} not found`);
    if (ws.archived) throw new AppError('WORKSPACE_ARCHIVED', `Workspace ${id} is archived and read-only`);
    if (!(await permissionsOf(platform.db, inviter, ws)).has('WORKSPACE_MANAGE')) throw new AppError('FORBIDDEN', `Missing permission WORKSPACE_MANAGE in workspace ${id}`);
  }
  return unique;
}

/**
 * Mails a single-use activation token (stored hashed, with an expiry). It is the user's one live
 * link: the one mailed before stops working.
 */
async function sendInvitation(platform: Platform, userId: number, email: string): Promise<void> {
  const { kv } = platform;
  const token = randomToken(32);
  const hash = hashToken(token);
  const previous = await kv.get(liveInviteKey(userId));
  if (previous) await kv.delete(inviteKey(previous));
  await kv.set(inviteKey(hash), String(userId), { ttlMs: INVITATION_TTL_MS });
  await kv.set(liveInviteKey(userId), hash, { ttlMs: INVITATION_TTL_MS });
  const link = platform.publicAddress.link(`/activate?token=${encodeURIComponent(token)}`);
  await platform.mailer.send({
    to: email,
    subject: 'You are invited to the QA Platform',
    text: `You have been invited to the QA Platform.\n\nChoose your password here (valid ${INVITATION_TTL_MS / 86_400_000} days, once): ${link}\n\nToken: ${token}\n`,
  });
}

/**
 * The user an activation token invites, using it up; null when it is unknown, expired, used, or
 * replaced by a newer invitation.
 */
export async function takeInvitation(platform: Platform, token: string): Promise<number | null> {
  const hash = hashToken(token);
  const userId = await platform.kv.take(inviteKey(hash));
  if (userId === null) return null;
  const live = await platform.kv.get(liveInviteKey(Number(userId)));
  return live === null || live === hash ? Number(userId) : null;
}

/**
 * Grants a user who just accepted an invitation the workspaces it names, each a `WorkspaceAccessGranted`
 * event whose actor is the inviter. A workspace deleted or archived since is skipped (and logged).
 */
export async function grantInvitedWorkspaces(platform: Platform, user: UserState, ctx: CommandContext): Promise<void> {
  if (user.status === 'none' || user.status === 'deleted' || !user.invitation) return;
  const workspaces = orgAggregate(platform, workspaceDecider, workspaceStream);
  const context = { ...ctx, actorId: user.invitation.invitedBy, companyId: user.companyId };
  const results = [];
  for (const workspaceId of user.invitation.workspaceIds) {
    try {
      const command = { type: 'GrantAccess', companyId: user.companyId, grantee: { kind: 'user', userId: user.userId } } as const;
      results.push(await workspaces.run(workspaceId, command, context, { settle: false }));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      platform.logger.warn({ userId: user.userId, workspaceId, code: err.code }, 'an invitation names a workspace that can no longer be granted; skipped');
    }
  }
  await workspaces.settle(lastWrite(...results));
}

/** An invited user takes their account: their password (and name, profile image) recorded, the invitation's workspaces granted. */
export async function activateUser(platform: Platform, ctx: CommandContext, userId: number, activation: { passwordHash: string; name?: string; image?: ProfileImage }): Promise<void> {
  const result = await userWrites(platform).users.run(userId, { type: 'ActivateUser', ...activation }, ctx);
  await grantInvitedWorkspaces(platform, result.state, ctx);
}

/** Changes name, username, title, phone of a user of the caller's company (permission checked by the caller). */
export async function updateUser(
  platform: Platform,
  ctx: CommandContext,
  user: UserView,
  changes: { name?: string | undefined; username?: string | undefined; title?: string | null | undefined; phone?: string | null | undefined },
): Promise<void> {
  const { users, names } = userWrites(platform);
  if (changes.username !== undefined && (await usernameTaken(platform.db, changes.username, user.id))) {
    throw new AppError('NAME_TAKEN', `Username "${changes.username}" already exists`);
  }
  const result = await names.renamed('username', 'Username', user.id, user.username, changes.username, ctx, () =>
    users.run(user.id, { type: 'UpdateUser', companyId: user.companyId, changes: definedOnly(changes) }, ctx, { settle: false }),
  );
  await users.settle(result);
}

/** Replaces a user's company roles (permission and grant checks by the caller). */
export async function replaceRoles(platform: Platform, ctx: CommandContext, user: Pick<UserView, 'id' | 'companyId'>, roleIds: number[]): Promise<void> {
  await userWrites(platform).users.run(user.id, { type: 'ReplaceRoles', companyId: user.companyId, roleIds }, ctx);
}

/** Grants or revokes company administrator (permission and self checks by the caller). */
export async function setAdmin(platform: Platform, ctx: CommandContext, user: Pick<UserView, 'id' | 'companyId'>, isAdmin: boolean): Promise<void> {
  await userWrites(platform).users.run(user.id, { type: 'SetAdmin', companyId: user.companyId, isAdmin }, ctx);
}

/**
 * Activates or deactivates a user of the caller's company (permission and self checks by the caller):
 * a deactivated user cannot sign in, and every token of theirs stops working at once.
 */
export async function setUserStatus(
  platform: Platform,
  revocations: TokenRevocations,
  ctx: CommandContext,
  user: Pick<UserView, 'id' | 'companyId'>,
  status: 'active' | 'deactivated',
): Promise<void> {
  const { users } = userWrites(platform);
  const type = status === 'active' ? 'ReactivateUser' : 'DeactivateUser';
  const result = await users.run(user.id, { type, companyId: user.companyId }, ctx, { settle: false });
  if (status === 'deactivated') await revocations.revokeUserTokensBefore(user.id, platform.now());
  await users.settle(result);
}

/**
 * Deletes a user of the caller's company (permission and self checks by the caller): their tokens stop
 * working, the e-mail address and username are freed, the profile image is removed.
 */
export async function deleteUser(platform: Platform, revocations: TokenRevocations, ctx: CommandContext, user: UserView): Promise<void> {
  const { users, emails, names } = userWrites(platform);
  const image = await userImage(platform.db, user.companyId, user.id);
  const result = await users.run(user.id, { type: 'DeleteUser', companyId: user.companyId }, ctx, { settle: false });
  await revocations.revokeUserTokensBefore(user.id, platform.now());
  await emails.run(user.email, { type: 'ReleaseEmail', email: user.email, userId: user.id }, ctx, { settle: false });
  await names.release('username', user.username, user.id, ctx);
  if (image) await platform.blobs.delete(image.key);
  await users.settle(result);
}

/** Drops keys whose value is undefined (zod leaves optional keys absent or undefined). */
export function definedOnly<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
