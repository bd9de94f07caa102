import type { Config } from '#shared/config.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import { refusedUntilWindowEnds } from './throttle.js';

const HOUR_MS = 3_600_000;

/** Allowances per hour; 0 switches one off. */
export interface SendLimitValues {
  /** Requests that send mail (password reset, invitations) from one client address. */
  mailPerAddress: number;
  /** Mails to one e-mail address. */
  mailPerEmail: number;
  /** Sign-ups from one client address. */
  signupPerAddress: number;
}

/**
 * Fixed one-hour windows on what sends mail or creates companies, so neither a mailbox can be flooded
 * nor companies created in bulk from one address. Over a per-address limit the request is answered 429
 * with `Retry-After`; the per-recipient limit only says whether to send, so that a caller decides
 * whether to reveal it (a password reset must not: it answers the same and sends nothing).
 */
export class SendLimits {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly limits: SendLimitValues,
  ) {}

  /** Counts one request from `address`; throws 429 TOO_MANY_REQUESTS when over its hourly limit. */
  async chargeAddress(kind: 'mail' | 'signup', address: string): Promise<void> {
    const limit = kind === 'mail' ? this.limits.mailPerAddress : this.limits.signupPerAddress;
    await this.charge(`limit:${kind}:addr:${address}`, limit, kind === 'mail' ? 'requests that send mail from this address' : 'sign-ups from this address');
  }

  /**
   * Counts one mail to `email`, for a caller who may say so (an administrator inviting): throws 429 when
   * the address has had its mails for the hour.
   */
  async chargeRecipient(email: string): Promise<void> {
    await this.charge(recipientKey(email), this.limits.mailPerEmail, 'mails to this address');
  }

  /** Counts one mail to `email`; false when it is over its hourly limit (nothing should be sent). */
  async mayMail(email: string): Promise<boolean> {
    const limit = this.limits.mailPerEmail;
    return limit <= 0 || (await this.kv.increment(recipientKey(email), { ttlMs: HOUR_MS })) <= limit;
  }

  private async charge(key: string, limit: number, what: string): Promise<void> {
    if (limit <= 0) return;
    if ((await this.kv.increment(key, { ttlMs: HOUR_MS })) <= limit) return;
    throw await refusedUntilWindowEnds(this.kv, key, HOUR_MS, (s) => `Too many ${what}: ${limit} per hour; try again in ${s} s`);
  }
}

const recipientKey = (email: string) => `limit:mail:to:${email.trim().toLowerCase()}`;

/** The installation's send limits (`MAIL_MAX_PER_*`, `SIGNUP_MAX_PER_ADDRESS_PER_HOUR`) over its shared counters. */
export function sendLimitsOf(counters: KeyValueStore, config: Pick<Config, 'MAIL_MAX_PER_ADDRESS_PER_HOUR' | 'MAIL_MAX_PER_EMAIL_PER_HOUR' | 'SIGNUP_MAX_PER_ADDRESS_PER_HOUR'>): SendLimits {
  return new SendLimits(counters, {
    mailPerAddress: config.MAIL_MAX_PER_ADDRESS_PER_HOUR,
    mailPerEmail: config.MAIL_MAX_PER_EMAIL_PER_HOUR,
    signupPerAddress: config.SIGNUP_MAX_PER_ADDRESS_PER_HOUR,
  });
}
