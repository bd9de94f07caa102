import { dummyVerify, hashPassword, hashToken, randomToken, verifyPassword } from '#shared/auth/index.js';
import { AppError, found } from '#shared/errors.js';
import { commandContext, handleCommand } from '#shared/es/index.js';
import { findSignInSession } from '#projections/sign-in-sessions/index.js';
import { allocateId } from '#shared/ids.js';
import {
  defaultWorkspaceId,
  findAccessibleWorkspace,
  findUserById,
  findUserByLogin,
  type DirectoryUser,
} from '#projections/org-directory/index.js';
import type { Platform } from '../../platform.js';
import { companyDecider, companyStream } from '../companies/index.js';
import { enforcingIdentityProvider, refuseVerifiedAddress } from '../domains/index.js';
import { MODULE_KEYS } from '#events/organization/modules.js';
import { OrgNames } from '../claims/index.js';
import { createBuiltInRoles } from '../roles/index.js';
import { registerUser, userDecider, userStream } from '../users/index.js';
import { workspaceDecider, workspaceStream } from '../workspaces/index.js';
import { RefreshTokenReused, RefreshTokens } from './refresh-tokens.js';
import { AccessRevocations } from './revocation.js';
import { signInSessionRecord, SignInSessions } from './sessions.js';
import { SignInAttempts, type SignInAttempt, type SignInClient } from './sign-in-attempts.js';
import { SendLimits } from './send-limits.js';
import { SignInThrottle } from './throttle.js';
import { SsoEnforcement } from './sso-enforcement.js';

export interface TokenPair {
  token: string;
  expiresIn: string;
  refreshToken: string;
}

/** Where a request comes from: the client's address and browser, and the request's id. */
export type ClientInfo = SignInClient;

const resetKey = (hash: string) => `auth:reset:${hash}`;

/** The projections a sign-in reads, waited for after every identity write. */
const IDENTITY_READ_MODELS = ['org-directory'] as const;

/**
 * Sign-in, token pairs, sign-up, password reset and workspace switching: the organization's token
 * flow (docs/modules/organization.md).
 */
export class AuthService {
  readonly refreshTokens: RefreshTokens;
  readonly revocations: AccessRevocations;
  readonly throttle: SignInThrottle;
  readonly sessions: SignInSessions;
  /** The record of every sign-in attempt, password or provider. */
  readonly signIns: SignInAttempts;
  /** Hourly limits on mail and sign-ups, per client address and per recipient. */
  readonly sendLimits: SendLimits;
  /** What "single sign-on required" ends: password sessions, and credentials made from them until approved. */
  readonly enforcement: SsoEnforcement;

  constructor(private readonly platform: Platform) {
    const { config, kv } = platform;
    this.refreshTokens = new RefreshTokens(kv, config.REFRESH_TOKEN_TTL);
    // With Redis the revocations are a cache of the sign-in events, checked against and rebuilt from
    // their read model when Redis is away or lost its data; the SQL store is durable itself.
    this.revocations = new AccessRevocations(kv, Math.max(config.ACCESS_TOKEN_TTL, config.REFRESH_TOKEN_TTL), config.ACCESS_TOKEN_TTL, {
      ...(kv.kind === 'redis' ? { record: signInSessionRecord(platform) } : {}),
      log: (level, message, err) => platform.logger[level]({ err }, message),
    });
    this.sessions = new SignInSessions(platform, this.refreshTokens, this.revocations);
    this.signIns = new SignInAttempts(platform, this.sessions);
    this.enforcement = new SsoEnforcement(platform, this.sessions);
    this.sendLimits = new SendLimits(platform.counters, {
      mailPerAddress: config.MAIL_MAX_PER_ADDRESS_PER_HOUR,
      mailPerEmail: config.MAIL_MAX_PER_EMAIL_PER_HOUR,
      signupPerAddress: config.SIGNUP_MAX_PER_ADDRESS_PER_HOUR,
    });
    this.throttle = new SignInThrottle(platform.counters, {
      perAccountAndAddress: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowMs: config.LOGIN_THROTTLE_WINDOW,
      perAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT * 4,
      accountWindowMs: 60_000,
    });
  }

  /** Issues an access token and a refresh token in a family (a new sign-in session unless given). */
  async issuePair(
    user: { userId: number; companyId: number; workspaceId: number | null },
    family?: { familyId: string; signedInAt: number },
  ): Promise<TokenPair & { sessionId: string }> {
    const refresh = await this.refreshTokens.issue({
      ...user,
      ...(family ?? { signedInAt: this.platform.now().getTime() }),
    });
    const access = await this.platform.tokens.issueAccessToken({
      userId: user.userId,
      companyId: user.companyId,
      workspaceId: user.workspaceId,
      sessionId: refresh.familyId,
    });
    return { token: access.token, expiresIn: access.expiresIn, refreshToken: refresh.token, sessionId: refresh.familyId };
  }

  /**
   * Starts a sign-in session: a new family, recorded on the user's sign-in stream with the successful
   * attempt that began it (none for a sign-up), in one append.
   */
  async startSession(
    user: { userId: number; companyId: number; workspaceId: number | null },
    client: ClientInfo | null,
    attempt?: SignInAttempt,
  ): Promise<TokenPair> {
    const { sessionId, ...pair } = await this.issuePair(user);
    const method = attempt && attempt.method !== 'password' ? 'sso' : 'password';
    const started = this.sessions.startedEvent(user, sessionId, client, { actorId: user.userId, companyId: user.companyId }, method);
    if (attempt) await this.signIns.record(attempt, started);
    else await this.sessions.record(user.userId, [started]);
    return pair;
  }

  /** Verifies a password sign-in, throttled per account and address, and records the attempt. */
  async login(login: string, password: string, client: ClientInfo): Promise<TokenPair> {
    const { db, logger } = this.platform;
    const account = login.trim();
    await this.throttle.check(account, client.address).catch(async (err: unknown) => {
      const user = await findUserByLogin(db, account);
      if (user) await this.signIns.record({ method: 'password', who: { user }, failure: 'throttled', client });
      throw err;
    });
    const user = await findUserByLogin(db, account);
    await this.refuseWhereSsoIsRequired(user?.email ?? account);
    if (!user) {
      await dummyVerify(password);
      await this.throttle.recordFailure(account, client.address);
      logger.info({ requestId: client.requestId, address: client.address }, 'sign-in failed: unknown account');
      throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
    }
    // An invited user has no password yet: spend the same time as a real check, then fail.
    const ok = user.passwordHash ? await verifyPassword(password, user.passwordHash) : (await dummyVerify(password), false);
    if (!ok) {
      await this.throttle.recordFailure(account, client.address);
      await this.signIns.record({ method: 'password', who: { user }, failure: 'bad_password', client });
      throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
    }
    if (user.status !== 'active') {
      await this.signIns.record({ method: 'password', who: { user }, failure: 'inactive', client });
      throw new AppError('ACCOUNT_DISABLED', 'This account is not active');
    }
    await this.throttle.recordSuccess(account, client.address);
    const workspaceId = await defaultWorkspaceId(db, { userId: user.id, companyId: user.companyId });
    return this.startSession({ userId: user.id, companyId: user.companyId, workspaceId }, client, { method: 'password', who: { user }, failure: null, client });
  }

  /**
   * An address whose domain's owner (the company that verified it) enforces an identity provider signs in
   * only through it: 403 SSO_REQUIRED naming it. The owner decides for every account at its domain, and no
   * other company's provider decides for any.
   */
  private async refuseWhereSsoIsRequired(email: string): Promise<void> {
    const provider = await enforcingIdentityProvider(this.platform.db, email);
    if (!provider) return;
    throw new AppError('SSO_REQUIRED', `Addresses of this domain sign in with ${provider.name}`, {
      details: [{ path: 'username', message: `Sign in with ${provider.name}`, provider: { id: provider.id, type: provider.type, name: provider.name } }],
    });
  }

  /**
   * A password session of a person whose company now requires single sign-on refreshes nothing: it is
   * ended (were it not yet, because the rule began while this process was away) and the answer names
   * the provider.
   */
  private async refuseRefreshWhereSsoIsRequired(user: DirectoryUser, sessionId: string): Promise<void> {
    const provider = await this.enforcement.requiredFor(user);
    if (!provider) return;
    const session = await findSignInSession(this.platform.db, user.id, sessionId);
    if (session?.method === 'sso') return;
    await this.sessions.end({ sessionId, userId: user.id }, 'sso_required', { actorId: null, companyId: user.companyId });
    throw new AppError('SSO_REQUIRED', `Addresses of this domain sign in with ${provider.name}`);
  }

  /**
   * Rotates a refresh token: the old one is spent, a new pair is issued in the same family. A token
   * used twice was stolen: its session ends, every access token of it included (the thief's and the
   * owner's), and the answer is 401 REFRESH_TOKEN_REUSED.
   */
  async refresh(refreshToken: string, client?: ClientInfo): Promise<TokenPair> {
    const grant = await this.refreshTokens.consume(refreshToken).catch(async (err: unknown) => {
      if (err instanceof RefreshTokenReused) await this.sessions.endStolen(err.familyId, err.userId);
      throw err;
    });
    const user = await findUserById(this.platform.db, grant.userId);
    if (
      !user ||
      user.status !== 'active' ||
      (await this.revocations.issuedBeforeRevocation(grant.userId, grant.signedInAt)) ||
      (await this.revocations.sessionEnded(grant.familyId))
    ) {
      await this.refreshTokens.revokeFamily(grant.familyId);
      throw new AppError('REFRESH_TOKEN_INVALID', 'Invalid or expired refresh token');
    }
    await this.refuseRefreshWhereSsoIsRequired(user, grant.familyId);
    let workspaceId = grant.workspaceId;
    if (workspaceId !== null && !(await findAccessibleWorkspace(this.platform.db, grant, workspaceId))) {
      workspaceId = await defaultWorkspaceId(this.platform.db, grant);
    }
    const { sessionId, ...pair } = await this.issuePair({ userId: grant.userId, companyId: grant.companyId, workspaceId }, grant);
    this.sessions.used(sessionId, client?.address ?? null);
    return pair;
  }

  /**
   * Ends the caller's sign-in session: this access token and every other of the session (switched
   * workspaces included) are refused from the next request on, and its refresh tokens stop working.
   * Other sign-ins of the same user go on.
   */
  async logout(token: { userId: number; companyId: number; jti: string; exp: number; sid?: string }): Promise<void> {
    if (token.sid) {
      await this.sessions.end({ sessionId: token.sid, userId: token.userId }, 'logout', { actorId: token.userId, companyId: token.companyId });
    }
    await this.revocations.block(token.jti, token.exp, this.platform.now());
  }

  /** Re-issues the caller's token with another active workspace baked in. */
  async switchWorkspace(
    caller: { userId: number; companyId: number; sid?: string; issuedAtMs: number },
    workspaceId: number,
  ): Promise<TokenPair> {
    const ws = found(await findAccessibleWorkspace(this.platform.db, caller, workspaceId), 'Workspace not found');
    // The new token belongs to the caller's sign-in session, so its end (logout, reuse detection, ...)
    // ends this token too. A session that has run its course does not start another.
    if (!caller.sid || !(await this.refreshTokens.familyActive(caller.sid))) {
      throw new AppError('TOKEN_REVOKED', 'The sign-in of this token has ended; sign in again');
    }
    const { sessionId: _sid, ...pair } = await this.issuePair({ userId: caller.userId, companyId: caller.companyId, workspaceId: ws.id }, { familyId: caller.sid, signedInAt: caller.issuedAtMs });
    return pair;
  }

  /**
   * Self-service sign-up: a company, its "Default" workspace with every module, and the caller as the
   * company's administrator (docs/api-conventions.md). Not at an address of a domain a company verified
   * (409 DOMAIN_TAKEN): its people join that company.
   */
  async signup(
    input: { email: string; password: string; name: string; companyName: string },
    client: ClientInfo | null,
  ): Promise<{ pair: TokenPair; userId: number; companyId: number; workspaceId: number }> {
    await refuseVerifiedAddress(this.platform.db, input.email.trim());
    const created = await this.createCompanyWithAdmin(input);
    const pair = await this.startSession({ userId: created.userId, companyId: created.companyId, workspaceId: created.workspaceId }, client);
    return { pair, ...created };
  }

  /**
   * Creates company, its built-in roles, default workspace and administrator; waits until sign-in can
   * see them.
   */
  async createCompanyWithAdmin(
    input: { email: string; password: string; name: string; companyName: string },
  ): Promise<{ userId: number; companyId: number; workspaceId: number }> {
    const { db, store } = this.platform;
    const email = input.email.trim();
    const userId = await allocateId(db, 'user');
    const companyId = await allocateId(db, 'company');
    const workspaceId = await allocateId(db, 'workspace');
    const ctx = commandContext(this.platform, { actorId: userId, companyId });
    // The company, its roles and workspace are made once the address is the new person's: of two
    // sign-ups with one address, the loser creates nothing.
    const createCompany = async () => {
      await handleCommand({
        store,
        streamId: companyStream(companyId),
        decider: companyDecider,
        command: { type: 'RegisterCompany', companyId, name: input.companyName.trim() },
        context: ctx,
      });
      const roleIds = await createBuiltInRoles(this.platform, companyId, ctx);
      await new OrgNames(this.platform).claim(`workspace-name:${companyId}`, 'Default', workspaceId, 'Workspace', ctx);
      await handleCommand({
        store,
        streamId: workspaceStream(workspaceId),
        decider: workspaceDecider,
        command: { type: 'CreateWorkspace', workspaceId, companyId, name: 'Default', description: '', settings: {}, modules: [...MODULE_KEYS] },
        context: { ...ctx, workspaceId },
      });
      return { roleIds: [roleIds.get('Admin')!] };
    };
    const person = { status: 'active', origin: 'sign-up', companyId, email, name: input.name, passwordHash: await hashPassword(input.password), roleIds: [] } as const;
    await registerUser(this.platform, person, ctx, { userId, afterClaim: createCompany });
    return { userId, companyId, workspaceId };
  }

  /**
   * Mails a single-use reset link when the account exists; answers the same either way, and the same
   * when its address has had its mails for the hour (then nothing is sent). Over the limit of the
   * client's address: 429, whether the account exists or not.
   */
  async forgotPassword(email: string, client: ClientInfo): Promise<void> {
    await this.sendLimits.chargeAddress('mail', client.address);
    const user = await findUserByLogin(this.platform.db, email.trim());
    if (!user || user.email.toLowerCase() !== email.trim().toLowerCase()) {
      this.platform.logger.info({ requestId: client.requestId }, 'password reset asked for an unknown address');
      return;
    }
    if (!(await this.sendLimits.mayMail(user.email))) {
      this.platform.logger.warn({ requestId: client.requestId, userId: user.id }, 'password reset not mailed: the address had its mails for the hour');
      return;
    }
    const token = randomToken(32);
    await this.platform.kv.set(resetKey(hashToken(token)), String(user.id), { ttlMs: this.platform.config.RESET_TOKEN_TTL });
    const link = this.platform.publicAddress.link(`/reset-password?token=${encodeURIComponent(token)}`);
    const minutes = Math.round(this.platform.config.RESET_TOKEN_TTL / 60_000);
    await this.platform.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Someone asked to reset the password of your account.\n\nReset it here (valid ${minutes} minutes, once): ${link}\n\nToken: ${token}\n\nIf it was not you, ignore this mail.`,
    });
  }

  /** Sets a new password with a reset token; every refresh and access token of the user stops working. */
  async resetPassword(token: string, password: string): Promise<void> {
    const userId = await this.platform.kv.take(resetKey(hashToken(token)));
    if (userId === null) throw new AppError('INVALID_RESET_TOKEN', 'Invalid or expired reset token');
    const user = await findUserById(this.platform.db, Number(userId));
    if (!user) throw new AppError('INVALID_RESET_TOKEN', 'Invalid or expired reset token');
    const result = await handleCommand({
      store: this.platform.store,
      streamId: userStream(user.id),
      decider: userDecider,
      command: { type: 'ChangePassword', passwordHash: await hashPassword(password), reason: 'reset' },
      context: commandContext(this.platform, { actorId: user.id, companyId: user.companyId }),
    });
    await this.revocations.revokeUserTokensBefore(user.id, this.platform.now());
    if (result.position !== null) await this.platform.readModels.waitFor(result.position, { names: IDENTITY_READ_MODELS });
  }
}
