import type { KeyValueStore } from '#shared/kv/types.js';

const blockKey = (jti: string) => `auth:bl:${jti}`;
const validAfterKey = (userId: number) => `auth:valid-after:${userId}`;
const sessionEndedKey = (sid: string) => `auth:sid-ended:${sid}`;

/** Slack on the markers' lives: a token minted by a request in flight when its session ended. */
const SLACK_MS = 60_000;

/** A verified access token, as the revocation check needs it. */
export interface RevocableToken {
  jti: string;
  userId: number;
  issuedAtMs: number;
  /** The sign-in session (refresh family) the token belongs to. */
  sid?: string | undefined;
}

/**
 * Access tokens are verified locally, so revoking one before its expiry needs shared state, all of it
 * in the key-value store so every replica sees it: the logout blocklist (by `jti`), the ended sign-in
 * sessions (by `sid`: every access token of the session), and a per-user "not before" instant
 * (password change, deactivation, deletion, sign out everywhere). Entries live only as long as the
 * tokens they reject. One request reads all three in one step (`getMany`: one `MGET` on Redis).
 */
export class AccessRevocations {
  constructor(
    private readonly kv: KeyValueStore,
    /** Longest life of anything the marker must reject: access or refresh tokens. */
    private readonly longestTtlMs: number,
    /** Life of an access token: how long a session's end must be remembered. */
    private readonly accessTtlMs: number = longestTtlMs,
  ) {}

  /** Blocklists one token until `expSeconds`. */
  async block(jti: string, expSeconds: number, now: Date): Promise<void> {
    const ttlMs = expSeconds * 1000 - now.getTime();
    if (ttlMs > 0) await this.kv.set(blockKey(jti), '1', { ttlMs });
  }

  /**
   * Rejects every access token of a sign-in session from now on: no token of it can be minted after
   * its refresh family ends, so the marker lives as long as the last one minted could.
   */
  async endSession(sid: string): Promise<void> {
    await this.kv.set(sessionEndedKey(sid), '1', { ttlMs: this.accessTtlMs + SLACK_MS });
  }

  /** Rejects every token of the user issued before `at`. */
  async revokeUserTokensBefore(userId: number, at: Date): Promise<void> {
    await this.kv.set(validAfterKey(userId), String(at.getTime()), { ttlMs: this.longestTtlMs + SLACK_MS });
  }

  /** Whether something of the user issued at `issuedAtMs` predates a revocation of all their tokens. */
  async issuedBeforeRevocation(userId: number, issuedAtMs: number): Promise<boolean> {
    const validAfter = await this.kv.get(validAfterKey(userId));
    return validAfter !== null && issuedAtMs < Number(validAfter);
  }

  /** Whether a verified token has been revoked since it was issued: one read of the key-value store. */
  async isRevoked(token: RevocableToken): Promise<boolean> {
    const keys = [blockKey(token.jti), validAfterKey(token.userId)];
    if (token.sid) keys.push(sessionEndedKey(token.sid));
    const [blocked, validAfter, sessionEnded] = await this.kv.getMany(keys);
    if (blocked !== null || (sessionEnded !== null && sessionEnded !== undefined)) return true;
    return validAfter !== null && validAfter !== undefined && token.issuedAtMs < Number(validAfter);
  }
}
