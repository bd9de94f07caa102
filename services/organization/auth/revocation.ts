import type { KeyValueStore } from '#shared/kv/types.js';

const blockKey = (jti: string) => `auth:bl:${jti}`;
const validAfterKey = (userId: number) => `auth:valid-after:${userId}`;

/**
 * Access tokens are verified locally, so revoking one before its expiry needs shared state: the
 * logout blocklist (by `jti`) and a per-user "not before" instant (password reset, deactivation).
 * Entries live only as long as the tokens they reject.
 */
export class AccessRevocations {
  constructor(
    private readonly kv: KeyValueStore,
    /** Longest life of anything the marker must reject: access or refresh tokens. */
    private readonly longestTtlMs: number,
  ) {}

  /** Blocklists one token until `expSeconds`. */
  async block(jti: string, expSeconds: number, now: Date): Promise<void> {
    const ttlMs = expSeconds * 1000 - now.getTime();
    if (ttlMs > 0) await this.kv.set(blockKey(jti), '1', { ttlMs });
  }

  /** Rejects every token of the user issued before `at`. */
  async revokeUserTokensBefore(userId: number, at: Date): Promise<void> {
    await this.kv.set(validAfterKey(userId), String(at.getTime()), { ttlMs: this.longestTtlMs + 60_000 });
  }

  /** Whether something of the user issued at `issuedAtMs` predates a revocation of all their tokens. */
  async issuedBeforeRevocation(userId: number, issuedAtMs: number): Promise<boolean> {
    const validAfter = await this.kv.get(validAfterKey(userId));
    return validAfter !== null && issuedAtMs < Number(validAfter);
  }

  /** Whether a verified token has been revoked since it was issued. */
  async isRevoked(token: { jti: string; userId: number; issuedAtMs: number }): Promise<boolean> {
    const [blocked, validAfter] = await Promise.all([this.kv.get(blockKey(token.jti)), this.kv.get(validAfterKey(token.userId))]);
    if (blocked !== null) return true;
    return validAfter !== null && token.issuedAtMs < Number(validAfter);
  }
}
