import { z } from 'zod';
import { hashToken } from '#shared/auth/index.js';
import { defineEvents, type EventOf } from '#shared/es/index.js';

const id = z.number().int();
const user = z.object({ userId: id });

/** A profile image as stored in the blob store; the bytes live there, the event records where. */
const profileImage = z.object({ key: z.string(), contentType: z.string(), size: z.number().int(), sha256: z.string() });
export type ProfileImage = z.output<typeof profileImage>;

/** Profile fields a user (or a user manager) may change. */
const userChanges = z.object({ name: z.string().optional(), username: z.string().optional(), title: z.string().nullable().optional(), phone: z.string().nullable().optional() });
export type UserChanges = z.output<typeof userChanges>;

/**
 * Events of the `user-<id>` stream. Stored events are never rewritten: `UserRegistered` keeps its
 * original fields (`roles` by name, as the first sign-ups wrote them) and gained an optional `roleIds`.
 */
export const userEvents = defineEvents({
  UserRegistered: z.object({
    userId: id,
    companyId: id,
    email: z.string(),
    username: z.string(),
    name: z.string(),
    passwordHash: z.string(),
    isAdmin: z.boolean(),
    roles: z.array(z.string()),
    roleIds: z.array(id).optional(),
  }),
  UserPasswordChanged: z.object({ userId: id, passwordHash: z.string(), reason: z.enum(['reset', 'self', 'admin']) }),
  // `workspaceIds`: workspaces of the company the user is granted on activation (absent in early events).
  UserInvited: z.object({ userId: id, companyId: id, email: z.string(), username: z.string(), roleIds: z.array(id), invitedBy: id, workspaceIds: z.array(id).optional() }),
  // A pending invitation sent again (a new link; the earlier one stops working); `workspaceIds` replaces
  // the workspaces granted on activation when the new invitation names them.
  UserReinvited: z.object({ userId: id, invitedBy: id, workspaceIds: z.array(id).optional() }),
  UserActivated: z.object({ userId: id, name: z.string(), passwordHash: z.string() }),
  UserDeactivated: user,
  UserReactivated: user,
  UserUpdated: z.object({ userId: id, changes: userChanges }),
  UserRolesReplaced: z.object({ userId: id, roleIds: z.array(id) }),
  AdminGranted: user,
  AdminRevoked: user,
  UserProfileImageSet: z.object({ userId: id, image: profileImage }),
  UserProfileImageRemoved: user,
  UserDeleted: z.object({ userId: id, email: z.string(), username: z.string() }),
  // The deleted user's personal data erased: their key destroyed, so their fields read as an erased person's (shared/pii).
  UserErased: user,
});
export type UserEvent = EventOf<typeof userEvents>;
export const userStream = (userId: number): string => `user-${userId}`;

/** Who holds an e-mail address (`email-claim-<sha256>`). */
export const emailClaimEvents = defineEvents({
  EmailClaimed: z.object({ email: z.string(), userId: id }),
  EmailReleased: z.object({ email: z.string(), userId: id }),
});
export type EmailClaimEvent = EventOf<typeof emailClaimEvents>;

/** The uniqueness stream of an e-mail address (case-insensitive). */
export const emailClaimStream = (email: string): string => `email-claim-${hashToken(email.trim().toLowerCase())}`;

/** How a sign-in session began: a password kept here, or an identity provider (single sign-on or a directory). */
export const SIGN_IN_METHODS = ['password', 'sso'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** The identity provider of a sign-in through single sign-on or a directory. */
const signInProvider = z.object({ id, type: z.enum(['oidc', 'saml', 'ldap']), name: z.string() });

const signInFailureReason = z.enum(['bad_password', 'throttled', 'inactive']);
export type SignInFailureReason = z.output<typeof signInFailureReason>;

/**
 * Why one sign-in session ended: its own logout, its user ending it from the list, theft detected by
 * refresh-token reuse, or a password session of a person whose company now requires single sign-on.
 */
const signInSessionEndReason = z.enum(['logout', 'ended_by_user', 'refresh_token_reused', 'sso_required']);
export type SignInSessionEndReason = z.output<typeof signInSessionEndReason>;

/**
 * The `user-signins-<id>` stream: the outcome of each sign-in attempt, and the life of each sign-in
 * session (a refresh-token family, the `sid` of its access tokens): started by a sign-in or sign-up,
 * ended one by one or all at once ("sign out everywhere"). A password change, deactivation and
 * deletion (`user-<id>` events) end every session of the user too.
 */
export const signInEvents = defineEvents({
  // `provider`: the identity provider the sign-in went through (absent for a password sign-in).
  SignInSucceeded: z.object({ userId: id, address: z.string(), userAgent: z.string().nullable(), provider: signInProvider.optional() }),
  SignInFailed: z.object({ userId: id, address: z.string(), userAgent: z.string().nullable(), reason: signInFailureReason, provider: signInProvider.optional() }),
  // `method`: absent in sessions started before it was recorded (they were password or sign-up sessions).
  SignInSessionStarted: z.object({
    userId: id,
    signInSessionId: z.string(),
    address: z.string().nullable(),
    userAgent: z.string().nullable(),
    expiresAt: z.string(),
    method: z.enum(SIGN_IN_METHODS).optional(),
  }),
  SignInSessionEnded: z.object({ userId: id, signInSessionId: z.string(), reason: signInSessionEndReason }),
  SignInSessionsEnded: z.object({ userId: id, reason: z.enum(['signed_out_everywhere']) }),
});
export type SignInEvent = EventOf<typeof signInEvents>;
export const userSignInStream = (userId: number): string => `user-signins-${userId}`;
