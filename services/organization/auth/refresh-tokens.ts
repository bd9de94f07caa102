import { randomUUID } from 'node:crypto';
import { hashToken, randomToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { KeyValueStore } from '#shared/kv/index.js';

/** What a refresh token stands for. */
export interface RefreshGrant {
  userId: number;
  companyId: number;
  workspaceId: number | null;
  /** The family: every token rotated from one sign-in. */
  familyId: string;
  /** When the family began (ms since the epoch): a later revocation of all the user's tokens ends it. */
  signedInAt: number;
}

/** A refresh token used a second time: its family (sign-in session) has been ended. */
export class RefreshTokenReused extends AppError {
  constructor(
    readonly familyId: string,
    /** The family's user, when the family was still active. */
    readonly userId: number | null,
  ) {
    super('REFRESH_TOKEN_REUSED', 'Refresh token was already used; the session has been revoked');
  }
}

const tokenKey = (hash: string) => `auth:rt:${hash}`;
const usedKey = (hash: string) => `auth:rt-used:${hash}`;
const familyKey = (familyId: string) => `auth:rt-family:${familyId}`;

/**
 * Opaque refresh tokens, stored hashed in the key-value store and rotated on every use. A token used
 * twice means it leaked: its whole family is revoked, so neither the thief nor the owner can refresh
 * again without signing in (`RefreshTokenReused`; the caller ends the session's access tokens too).
 */
export class RefreshTokens {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly ttlMs: number,
  ) {}

  /** Starts a new family (a sign-in) and returns its first token. */
  async issue(
    grant: Omit<RefreshGrant, 'familyId' | 'signedInAt'> & { familyId?: string; signedInAt?: number },
  ): Promise<{ token: string; familyId: string }> {
    const familyId = grant.familyId ?? randomUUID();
    if (!grant.familyId) await this.kv.set(familyKey(familyId), String(grant.userId), { ttlMs: this.ttlMs });
    const token = randomToken(32);
    const signedInAt = grant.signedInAt ?? Date.now();
    await this.kv.set(tokenKey(hashToken(token)), JSON.stringify({ ...grant, familyId, signedInAt } satisfies RefreshGrant), {
      ttlMs: this.ttlMs,
    });
    return { token, familyId };
  }

  /**
   * Consumes a token and returns its grant; the caller issues the successor. The take is atomic, so of
   * two concurrent uses of one token exactly one succeeds and the other counts as reuse.
   */
  async consume(token: string): Promise<RefreshGrant> {
    const hash = hashToken(token);
    const raw = await this.kv.take(tokenKey(hash));
    if (raw === null) {
      const familyId = await this.kv.get(usedKey(hash));
      if (familyId !== null) {
        const owner = await this.kv.take(familyKey(familyId));
        throw new RefreshTokenReused(familyId, owner !== null && /^\d+$/.test(owner) ? Number(owner) : null);
      }
      throw new AppError('REFRESH_TOKEN_INVALID', 'Invalid or expired refresh token');
    }
    const grant = JSON.parse(raw) as RefreshGrant;
    await this.kv.set(usedKey(hash), grant.familyId, { ttlMs: this.ttlMs });
    if ((await this.kv.get(familyKey(grant.familyId))) === null) {
      throw new AppError('REFRESH_TOKEN_INVALID', 'Invalid or expired refresh token');
    }
    return grant;
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.kv.delete(familyKey(familyId));
  }

  async familyActive(familyId: string): Promise<boolean> {
    return (await this.kv.get(familyKey(familyId))) !== null;
  }
}
