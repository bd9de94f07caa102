import { timingSafeEqual } from 'node:crypto';
import { activeApiKeyByHash, oauthClientStanding, recordCredentialUse } from '#projections/org-credentials/index.js';
import { hashToken } from '#shared/auth/index.js';
import { createClientTokenService, looksLikeClientToken, type ClientTokenService } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { CREDENTIAL_SCOPES, tokenPrincipal, type ActiveWorkspace, type CredentialScope, type Principal } from '#shared/http/principal.js';
import { credentialNeedsApproval } from '#shared/http/key-verifier.js';
import type { ScopedCredential } from '../../gateway/access-control.js';
import type { Platform } from '../../platform.js';

/** `/v1` API keys: `qak_` and 43 base64url characters (256 random bits). */
export const API_KEY_PREFIX = 'qak_';
/** Public OAuth client ids and their secrets. */
export const CLIENT_ID_PREFIX = 'qoc_';
export const CLIENT_SECRET_PREFIX = 'qocs_';

/** How often, at most, the last use of one credential is written. */
const USAGE_WRITE_INTERVAL_MS = 60_000;

const usedKey = (credentialId: string) => `credentials:used:${credentialId}`;
const clientDeletedKey = (id: string) => `credentials:oauth-client-deleted:${id}`;

export type ResolveWorkspace = (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>;

const isScope = (s: string): s is CredentialScope => (CREDENTIAL_SCOPES as readonly string[]).includes(s);

/** Constant-time comparison of two SHA-256 hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/**
 * What the `/v1` credentials need at run time: verifying them for the gateway, the OAuth token
 * issuer, the deletion markers of OAuth clients, and the throttled last-use record.
 */
export class CredentialService {
  readonly clientTokens: ClientTokenService;

  constructor(
    private readonly platform: Platform,
    /** Whether a credential waits for an administrator's approval (single sign-on required). */
    readonly held: (c: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean> = async () => false,
  ) {
    this.clientTokens = createClientTokenService({
      keys: platform.keys,
      issuer: platform.config.JWT_ISSUER,
      ttlMs: platform.config.OAUTH_TOKEN_TTL,
      now: platform.now,
    });
  }

  /**
   * Records a use of a credential in the read model, at most once a minute per credential (a KV flag
   * with a time-to-live decides who writes). Not an event: see docs/modules/credentials.md.
   */
  async used(credentialId: string): Promise<void> {
    const first = await this.platform.kv.setIfAbsent(usedKey(credentialId), '1', { ttlMs: USAGE_WRITE_INTERVAL_MS });
    if (first) await recordCredentialUse(this.platform.db, credentialId, this.platform.now());
  }

  /**
   * Marks an OAuth client deleted for as long as any token issued to it could live, so its tokens
   * (verified locally, like access tokens) are refused from now on.
   */
  async markClientDeleted(id: string): Promise<void> {
    // The deletion event is the durable record, checked on every use; the marker only covers the moment
    // before its read model has it, so an unreachable key-value store does not stop the deletion.
    await this.platform.kv.set(clientDeletedKey(id), '1', { ttlMs: this.platform.config.OAUTH_TOKEN_TTL + 60_000 }).catch((err: unknown) => {
      this.platform.logger.warn({ err, clientId: id }, 'marking a deleted OAuth client in the key-value store failed; its read model refuses its tokens');
    });
  }

  /** The bearer credentials of the `/v1` set, for access control. */
  scopedCredentials(): ScopedCredential[] {
    const { platform } = this;
    const apiKey: ScopedCredential = {
      label: '/v1 API key',
      recognizes: (bearer) => bearer.startsWith(API_KEY_PREFIX),
      verify: async (bearer) => {
        if (bearer.length > 200) return null;
        const found = await activeApiKeyByHash(platform.db, hashToken(bearer));
        if (!found) return null;
        if (await this.held({ credentialId: found.keyId, userId: found.userId, signIn: found.signIn })) throw credentialNeedsApproval();
        const principal: Principal = {
          kind: 'user',
          credential: 'api-key',
          credentialId: found.keyId,
          ...(found.rateLimit !== null ? { rateLimit: found.rateLimit } : {}),
          scopes: found.scopes.filter(isScope),
          userId: found.userId,
          companyId: found.companyId,
          tokenWorkspaceId: found.workspaceId,
          jti: `api-key:${found.keyId}`,
          // A key lives until it is revoked; the expiry is only a formality here.
          exp: Number.MAX_SAFE_INTEGER,
          iat: Math.floor(found.createdAt.getTime() / 1000),
          issuedAtMs: found.createdAt.getTime(),
        };
        return { principal, workspaceId: found.workspaceId, used: () => this.used(found.keyId) };
      },
    };
    const clientToken: ScopedCredential = {
      label: 'OAuth client token',
      recognizes: looksLikeClientToken,
      verify: async (bearer) => {
        const claims = await this.clientTokens.verifyClientToken(bearer);
        const marked = await platform.kv.get(clientDeletedKey(claims.clientRecordId)).catch(() => null);
        // The same read says whether the client still exists and what budget its requests have.
        const standing = marked !== null ? null : await oauthClientStanding(platform.db, claims.clientRecordId);
        if (!standing || standing.deleted) {
          throw new AppError('TOKEN_REVOKED', 'The OAuth client of this token has been deleted');
        }
        if (await this.held({ credentialId: claims.clientRecordId, userId: standing.userId, signIn: standing.signIn })) throw credentialNeedsApproval();
        const principal = tokenPrincipal(claims, {
          credential: 'oauth-client',
          credentialId: claims.clientRecordId,
          clientId: claims.clientId,
          ...(standing.rateLimit !== null ? { rateLimit: standing.rateLimit } : {}),
          scopes: claims.scopes.filter(isScope),
          issuedAtMs: claims.iat * 1000,
        });
        return { principal, workspaceId: claims.workspaceId, used: () => this.used(claims.clientRecordId) };
      },
    };
    return [apiKey, clientToken];
  }
}
