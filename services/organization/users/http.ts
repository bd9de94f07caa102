import type { PersonalReadModels } from './erase.js';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { getUser, type UserView } from '#projections/org-directory/index.js';
import type { SignInSessionView } from '#projections/sign-in-sessions/index.js';
import { hashPassword } from '#shared/auth/index.js';
import { AppError, found } from '#shared/errors.js';
import { requirePermission } from '#shared/http/principal.js';
import type { Page } from '#shared/paging.js';
import type { PermissionKey } from '#shared/permissions.js';
import type { Platform } from '../../platform.js';
import { callerOf, requestActor, requireSelfOr } from '../http.js';
import { orgAggregate } from '../service.js';
import { userDecider, type UserCommand } from './decide.js';
import { userStream } from '#events/organization/users.js';
import type { TokenRevocations } from './service.js';
import { USERNAME_PATTERN } from './usernames.js';
import { commandContext } from '#shared/es/index.js';

// The users routes' vocabulary: their options, the schemas several of them take, and the guards
// every route asks before it acts.

/**
 * What the users routes ask of the token flow (the auth feature's `AuthService` is one): ending a
 * user's tokens, their sign-in sessions, and the hourly mail limits of invitations.
 */
export interface UserTokenFlow {
  readonly revocations: TokenRevocations;
  readonly sessions: {
    list(userId: number, page: number, size: number): Promise<Page<SignInSessionView>>;
    endAll(userId: number, actor: { actorId: number | null; companyId: number | null }): Promise<void>;
  };
  readonly sendLimits: {
    chargeAddress(kind: 'mail', address: string): Promise<void>;
    chargeRecipient(email: string): Promise<void>;
  };
}

export interface UsersOptions {
  platform: Platform;
  auth: UserTokenFlow;
  /** Rebuilt after an erasure (services/personal-read-models.ts). */
  personalReadModels?: PersonalReadModels;
}

export const tags = ['Users'];
export const password = z.string().min(8, 'at least 8 characters').max(256);
export const username = z.string().trim().regex(USERNAME_PATTERN, '2-64 letters, digits, dots, dashes or underscores');
export const personName = z.string().trim().min(1).max(128);
const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
export const UserUpdate = z.object({ name: personName.optional(), username: username.optional(), title: optionalText(128), phone: optionalText(64) });

/** What every users route asks before it acts, and how a change is written and read back. */
export function userGuards({ platform, auth }: UsersOptions) {
  const { db } = platform;
  const users = orgAggregate(platform, userDecider, userStream);

  /** The user of the caller's company, or 404 (also for another company's id). */
  const userOr404 = async (companyId: number, userId: number): Promise<UserView> => found(await getUser(db, companyId, userId), 'User not found');

  /** The user `userId` of the caller's company (404), when it is the caller or they hold `key` (403). */
  const selfOr = async (request: FastifyRequest, userId: number, key: PermissionKey): Promise<UserView> => {
    const user = await userOr404(callerOf(request).companyId, userId);
    await requireSelfOr(request, user.id, key);
    return user;
  };

  /** The user `userId` of the caller's company (404), once the caller is known to hold `key` (403). */
  const managed = async (request: FastifyRequest, userId: number, key: PermissionKey): Promise<UserView> => {
    await requirePermission(request, key);
    return userOr404(callerOf(request).companyId, userId);
  };

  /** Refuses what a user must not do to their own account (lock-outs). */
  const notSelf = (request: FastifyRequest, userId: number, what: string): void => {
    if (callerOf(request).userId === userId) throw new AppError('CONFLICT', `You cannot ${what} your own account`);
  };

  /** Runs a command on the user (then `after`, before the read model is waited for). */
  const write = async (request: FastifyRequest, userId: number, command: UserCommand, after?: () => Promise<unknown>): Promise<void> => {
    const result = await users.run(userId, command, commandContext(platform, requestActor(request)), { settle: false });
    if (after) await after();
    await users.settle(result);
  };

  /** `write`, answering the user as it now is. */
  const change = async (request: FastifyRequest, user: { id: number; companyId: number }, command: UserCommand, after?: () => Promise<unknown>): Promise<UserView> => {
    await write(request, user.id, command, after);
    return userOr404(user.companyId, user.id);
  };

  /** Sets a user's password: every token of theirs stops working. */
  const changePassword = async (request: FastifyRequest, companyId: number, userId: number, plain: string, reason: 'self' | 'admin'): Promise<void> => {
    const command = { type: 'ChangePassword', companyId, passwordHash: await hashPassword(plain), reason } as const;
    await write(request, userId, command, () => auth.revocations.revokeUserTokensBefore(userId, platform.now()));
  };

  return { userOr404, selfOr, managed, notSelf, write, change, changePassword };
}
