import { hashToken } from '#shared/auth/index.js';

/** A profile image as stored in the blob store; the bytes live there, the event records where. */
export interface ProfileImage {
  key: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** Profile fields a user (or a user manager) may change. */
export interface UserChanges {
  name?: string;
  username?: string;
  title?: string | null;
  phone?: string | null;
}

/**
 * Events of the `user-<id>` stream. Stored events are never rewritten: `UserRegistered` keeps its
 * original fields (`roles` by name, as the first sign-ups wrote them) and gained an optional `roleIds`.
 */
export type UserEvent =
  | {
      type: 'UserRegistered';
      payload: {
        userId: number;
        companyId: number;
        email: string;
        username: string;
        name: string;
        passwordHash: string;
        isAdmin: boolean;
        roles: string[];
        roleIds?: number[];
      };
    }
  | { type: 'UserPasswordChanged'; payload: { userId: number; passwordHash: string; reason: 'reset' | 'self' | 'admin' } }
  | {
      type: 'UserInvited';
      payload: { userId: number; companyId: number; email: string; username: string; roleIds: number[]; invitedBy: number };
    }
  | { type: 'UserActivated'; payload: { userId: number; name: string; passwordHash: string } }
  | { type: 'UserDeactivated'; payload: { userId: number } }
  | { type: 'UserReactivated'; payload: { userId: number } }
  | { type: 'UserUpdated'; payload: { userId: number; changes: UserChanges } }
  | { type: 'UserRolesReplaced'; payload: { userId: number; roleIds: number[] } }
  | { type: 'AdminGranted'; payload: { userId: number } }
  | { type: 'AdminRevoked'; payload: { userId: number } }
  | { type: 'UserProfileImageSet'; payload: { userId: number; image: ProfileImage } }
  | { type: 'UserProfileImageRemoved'; payload: { userId: number } }
  | { type: 'UserDeleted'; payload: { userId: number; email: string; username: string } };

export type EmailClaimEvent =
  | { type: 'EmailClaimed'; payload: { email: string; userId: number } }
  | { type: 'EmailReleased'; payload: { email: string; userId: number } };

/** Outcome of one sign-in attempt, in the `user-signins-<id>` stream. */
export type SignInEvent =
  | { type: 'SignInSucceeded'; payload: { userId: number; address: string; userAgent: string | null } }
  | {
      type: 'SignInFailed';
      payload: { userId: number; address: string; userAgent: string | null; reason: SignInFailureReason };
    };

export type SignInFailureReason = 'bad_password' | 'throttled' | 'inactive';

export const userStream = (userId: number): string => `user-${userId}`;
export const userSignInStream = (userId: number): string => `user-signins-${userId}`;

/** The uniqueness stream of an e-mail address (case-insensitive). */
export const emailClaimStream = (email: string): string => `email-claim-${hashToken(email.trim().toLowerCase())}`;
