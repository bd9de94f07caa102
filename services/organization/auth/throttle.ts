import type { KeyValueStore } from '#shared/kv/types.js';
import { AppError } from '#shared/errors.js';

export interface ThrottleLimits {
  /** Failures allowed for one account from one address in `windowMs`. */
  perAccountAndAddress: number;
  /** Failures allowed from one address, whatever the account, in `windowMs`. */
  perAddress: number;
  windowMs: number;
  /**
   * Failures allowed for one account from all addresses together in `accountWindowMs`. The window is
   * short on purpose: an attacker spread over many addresses slows guessing down but can keep the
   * owner out for at most this long.
   */
  perAccount: number;
  accountWindowMs: number;
}

const key = {
  pair: (account: string, address: string) => `auth:fail:pair:${account}:${address}`,
  address: (address: string) => `auth:fail:addr:${address}`,
  account: (account: string) => `auth:fail:acct:${account}`,
};

/**
 * Sign-in throttling by fixed windows of failures. The owner of an account, signing in from their
 * own address, is held back only by the short account-wide window, never by an attacker's failures
 * counted against the attacker's address.
 */
export class SignInThrottle {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly limits: ThrottleLimits,
  ) {}

  /** Throws 429 with Retry-After when this account or address may not try now. */
  async check(account: string, address: string): Promise<void> {
    const acct = account.toLowerCase();
    const checks: [string, number][] = [
      [key.pair(acct, address), this.limits.perAccountAndAddress],
      [key.address(address), this.limits.perAddress],
      [key.account(acct), this.limits.perAccount],
    ];
    for (const [k, limit] of checks) {
      const count = Number((await this.kv.get(k)) ?? 0);
      if (count >= limit) {
        const ttl = (await this.kv.ttl(k)) ?? this.limits.windowMs;
        const retryAfter = Math.max(1, Math.ceil(ttl / 1000));
        throw new AppError('TOO_MANY_REQUESTS', `Too many failed sign-in attempts; try again in ${retryAfter} s`, {
          headers: { 'retry-after': String(retryAfter) },
        });
      }
    }
  }

  async recordFailure(account: string, address: string): Promise<void> {
    const acct = account.toLowerCase();
    await Promise.all([
      this.kv.increment(key.pair(acct, address), { ttlMs: this.limits.windowMs }),
      this.kv.increment(key.address(address), { ttlMs: this.limits.windowMs }),
      this.kv.increment(key.account(acct), { ttlMs: this.limits.accountWindowMs }),
    ]);
  }

  /** A success from an address clears that address's count for the account. */
  async recordSuccess(account: string, address: string): Promise<void> {
    await this.kv.delete(key.pair(account.toLowerCase(), address));
  }
}
