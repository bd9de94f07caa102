import type { KeyValueStore } from '#shared/kv/index.js';
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

/**
 * The 429 for a fixed-window counter over its limit (`TOO_MANY_REQUESTS`, `Retry-After`): the client
 * may try again when the counter's key expires (`fallbackMs` if the store cannot say).
 */
export async function refusedUntilWindowEnds(kv: KeyValueStore, key: string, fallbackMs: number, message: (retryAfterSeconds: number) => string): Promise<AppError> {
  const retryAfter = Math.max(1, Math.ceil(((await kv.ttl(key)) ?? fallbackMs) / 1000));
  return new AppError('TOO_MANY_REQUESTS', message(retryAfter), { headers: { 'retry-after': String(retryAfter) } });
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
      if (count >= limit) throw await refusedUntilWindowEnds(this.kv, k, this.limits.windowMs, (s) => `Too many failed sign-in attempts; try again in ${s} s`);
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
