import { randomUUID } from 'node:crypto';
import type { KeyValueStore } from '#shared/kv/index.js';

const blockKey = (jti: string) => `auth:bl:${jti}`;
const validAfterKey = (userId: number) => `auth:valid-after:${userId}`;
const sessionEndedKey = (sid: string) => `auth:sid-ended:${sid}`;
/** Present while the cache holds every revocation still in force (written after a reload). */
const COMPLETE_KEY = 'auth:revocations:complete';
/** Held by the one process reloading the cache, so replicas do not all reload at once. */
const RELOADING_KEY = 'auth:revocations:reloading';

/** Slack on the markers' lives: a token minted by a request in flight when its session ended. */
const SLACK_MS = 60_000;
/** How long a reload may hold the lock before another process may take over. */
const RELOAD_LOCK_MS = 60_000;
/**
 * How long a complete cache is trusted before it is reloaded anyway: bounds the life of a hole that no
 * process noticed (a key evicted or deleted by hand, a write lost with a replica that died meanwhile).
 */
const COMPLETE_FOR_MS = 15 * 60_000;
/** After a failed reload, how long before another is tried (checks go to the durable record meanwhile). */
const RELOAD_RETRY_MS = 5_000;
/** After the cache failed, how long checks go straight to the durable record before it is tried again. */
const UNREACHABLE_FOR_MS = 1_000;

/** A verified access token, as the revocation check needs it. */
export interface RevocableToken {
  jti: string;
  userId: number;
  issuedAtMs: number;
  /** The sign-in session (refresh family) the token belongs to. */
  sid?: string | undefined;
}

/** The cache keys one check reads: the completeness marker, the token's block, its user's "not before", its session's end. */
function keysOf(token: RevocableToken): string[] {
  const keys = [COMPLETE_KEY, blockKey(token.jti), validAfterKey(token.userId)];
  if (token.sid) keys.push(sessionEndedKey(token.sid));
  return keys;
}

/**
 * The durable record of revocations: the events of the sign-in streams (a session ended; every session
 * of a user ended by a password change, deactivation, deletion or "sign out everywhere"), as the
 * `sign-in-sessions` read model holds them. Every access token carries its session, so "has its session
 * ended" is the whole question.
 */
export interface RevocationRecord {
  /** Whether the sign-in session has ended. */
  sessionEnded(sid: string): Promise<boolean>;
  /** The sessions that ended at or after `since`, and when. */
  endedSince(since: Date): Promise<{ sid: string; endedAt: Date }[]>;
  /**
   * Resolves once the record holds every event appended so far, and the one at `position` when given (the
   * revocation's own event: "so far" is the log's safe head, which an older transaction still open holds
   * below an event just committed).
   */
  caughtUp(position?: bigint): Promise<void>;
}

export interface RevocationOptions {
  /** Without one the key-value store is the only record (a store that is itself durable: the SQL one). */
  record?: RevocationRecord;
  /** Told of cache failures and reloads. */
  log?: (level: 'info' | 'warn', message: string, err?: unknown) => void;
}

/**
 * Access tokens are verified locally, so revoking one before its expiry needs shared state. The facts
 * are events (see `RevocationRecord`); the key-value store (Redis) holds a cache of them that every
 * replica reads in one step per request (`getMany`: one `MGET`): the logout blocklist (by `jti`), the
 * ended sign-in sessions (by `sid`) and a per-user "not before" instant. Markers live only as long as the
 * tokens they reject.
 *
 * The cache is trusted only while its completeness marker is present. When it is absent (Redis flushed
 * or restarted empty, or the marker expired) the check asks the durable record (and the cache, for what
 * was written since) while one process reloads the sessions ended within an access token's life and
 * then writes the marker again. When the cache cannot be reached at all, checks go to the durable record
 * alone. Every revocation waits until the record has it before it is answered, whether its cache write
 * succeeded or not; and a process that saw the cache fail drops the marker when it comes back, since
 * writes made meanwhile are missing from it.
 */
export class AccessRevocations {
  private readonly record: RevocationRecord | undefined;
  private readonly log: NonNullable<RevocationOptions['log']>;
  private unreachableUntil = 0;
  /** The cache failed since this process last trusted it. */
  private failedSinceTrusted = false;
  private reloading: Promise<void> | null = null;
  private nextReloadAt = 0;

  constructor(
    private readonly kv: KeyValueStore,
    /** Longest life of anything the marker must reject: access or refresh tokens. */
    private readonly longestTtlMs: number,
    /** Life of an access token: how long a session's end must be remembered. */
    private readonly accessTtlMs: number = longestTtlMs,
    options: RevocationOptions = {},
  ) {
    this.record = options.record;
    this.log = options.log ?? (() => undefined);
  }

  /** Blocklists one token until `expSeconds`. */
  async block(jti: string, expSeconds: number, now: Date): Promise<void> {
    const ttlMs = expSeconds * 1000 - now.getTime();
    if (ttlMs > 0) await this.write(() => this.kv.set(blockKey(jti), '1', { ttlMs }));
  }

  /**
   * Rejects every access token of a sign-in session from now on: no token of it can be minted after
   * its refresh family ends, so the marker lives as long as the last one minted could. Called after
   * the session's end is recorded, with the position of its event.
   */
  async endSession(sid: string, recordedAt?: bigint): Promise<void> {
    await this.write(() => this.kv.set(sessionEndedKey(sid), '1', { ttlMs: this.accessTtlMs + SLACK_MS }), recordedAt);
  }

  /** Rejects every token of the user issued before `at`. Called after the event that ends their sessions (with its position, when known). */
  async revokeUserTokensBefore(userId: number, at: Date, recordedAt?: bigint): Promise<void> {
    await this.write(() => this.kv.set(validAfterKey(userId), String(at.getTime()), { ttlMs: this.longestTtlMs + SLACK_MS }), recordedAt);
  }

  /** Whether something of the user issued at `issuedAtMs` predates a revocation of all their tokens. */
  async issuedBeforeRevocation(userId: number, issuedAtMs: number): Promise<boolean> {
    const validAfter = await this.kv.get(validAfterKey(userId));
    return validAfter !== null && issuedAtMs < Number(validAfter);
  }

  /** Whether a sign-in session has ended, in the cache or in the durable record (for refreshing: rare, so both are asked). */
  async sessionEnded(sid: string): Promise<boolean> {
    if ((await this.kv.get(sessionEndedKey(sid))) !== null) return true;
    return this.record ? this.record.sessionEnded(sid) : false;
  }

  /**
   * `isRevoked` answered at once, when the cache keeps its values in this process (no Redis) and it is
   * complete and trusted; undefined whenever `isRevoked` would have more to do than that one read.
   */
  revokedNow(token: RevocableToken): boolean | undefined {
    if (!this.kv.getManyNow || this.failedSinceTrusted || (this.record && Date.now() < this.unreachableUntil)) return undefined;
    let values: (string | null)[];
    try {
      values = this.kv.getManyNow(keysOf(token));
    } catch {
      return undefined;
    }
    const [complete, blocked, validAfter, sessionEnded] = values;
    if (blocked != null || sessionEnded != null) return true;
    if (validAfter != null && token.issuedAtMs < Number(validAfter)) return true;
    if (!this.record) return false;
    return complete != null ? false : undefined;
  }

  /** Whether a verified token has been revoked since it was issued: one read of the cache while it is complete. */
  async isRevoked(token: RevocableToken): Promise<boolean> {
    const keys = keysOf(token);
    let values: (string | null | undefined)[] | null = null;
    if (!this.record || Date.now() >= this.unreachableUntil) {
      try {
        values = await this.kv.getMany(keys);
      } catch (err) {
        if (!this.record) throw err;
        this.unreachable(err);
      }
    }
    if (values) {
      let complete = values[0];
      const [, blocked, validAfter, sessionEnded] = values;
      if (blocked != null || sessionEnded != null) return true;
      if (validAfter != null && token.issuedAtMs < Number(validAfter)) return true;
      if (!this.record) return false;
      if (this.failedSinceTrusted) {
        // Back after a failure: revocations written meanwhile may be missing, so the cache is reloaded.
        this.failedSinceTrusted = false;
        await this.kv.delete(COMPLETE_KEY).catch(() => false);
        complete = null;
        this.log('info', 'revocation cache reachable again; reloading it from the event record');
      }
      if (complete != null) return false;
      this.reload();
    }
    // No sign-in session: not a token this platform issues now; refused rather than trusted unchecked.
    return token.sid ? this.record!.sessionEnded(token.sid) : true;
  }

  /**
   * Writes a revocation to the cache, then waits until the durable record has it too (the caller
   * appended its event first, at `recordedAt`), so that once the revocation is answered no loss of the
   * cache can undo it.
   */
  private async write(operation: () => Promise<unknown>, recordedAt?: bigint): Promise<void> {
    if (!this.record) {
      await operation();
      return;
    }
    try {
      await operation();
    } catch (err) {
      this.unreachable(err);
    }
    await this.record.caughtUp(recordedAt);
  }

  private unreachable(err: unknown): void {
    if (!this.failedSinceTrusted) this.log('warn', 'revocation cache unreachable; checking tokens against the event record', err);
    this.failedSinceTrusted = true;
    this.unreachableUntil = Date.now() + UNREACHABLE_FOR_MS;
  }

  /** Starts a reload in the background, one at a time per process, and not again at once after a failure. */
  private reload(): void {
    if (this.reloading || Date.now() < this.nextReloadAt) return;
    this.reloading = this.reloadNow()
      .catch((err: unknown) => {
        this.nextReloadAt = Date.now() + RELOAD_RETRY_MS;
        this.log('warn', 'reloading the revocation cache failed', err);
      })
      .finally(() => {
        this.reloading = null;
      });
  }

  /** Loads the sessions ended within an access token's life into the cache, then marks it complete. Resolves when done. */
  async reloadNow(): Promise<void> {
    const record = this.record;
    if (!record) return;
    const me = randomUUID();
    if (!(await this.kv.setIfAbsent(RELOADING_KEY, me, { ttlMs: RELOAD_LOCK_MS }))) return;
    await record.caughtUp();
    const now = Date.now();
    const keep = this.accessTtlMs + SLACK_MS;
    const ended = await record.endedSince(new Date(now - keep));
    for (let i = 0; i < ended.length; i += 200) {
      await Promise.all(
        ended.slice(i, i + 200).map(async ({ sid, endedAt }) => {
          const ttlMs = endedAt.getTime() + keep - now;
          if (ttlMs > 0) await this.kv.set(sessionEndedKey(sid), '1', { ttlMs });
        }),
      );
    }
    // Only the holder of the lock marks the cache complete; a flush meanwhile took the lock away with it.
    if ((await this.kv.take(RELOADING_KEY)) === me) {
      await this.kv.set(COMPLETE_KEY, new Date(now).toISOString(), { ttlMs: COMPLETE_FOR_MS });
      this.log('info', `revocation cache reloaded: ${ended.length} ended sign-in sessions`);
    }
  }
}
