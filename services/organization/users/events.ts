/** Events of the `user-<id>` stream, and of the `email-claim-<hash>` uniqueness streams. */
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
      };
    }
  | { type: 'UserPasswordChanged'; payload: { userId: number; passwordHash: string; reason: 'reset' | 'self' | 'admin' } };

export type EmailClaimEvent = { type: 'EmailClaimed'; payload: { email: string; userId: number } };

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
