import { hashToken } from '#shared/auth/index.js';
import { AppError } from '../errors.js';
import type { ActiveWorkspace, Principal } from './principal.js';

/** Who a live module API key acts for, as its read model finds it by hash. */
export interface LiveKey {
  keyId: string;
  userId: number;
  companyId: number;
  workspaceId: number;
  createdAt: Date;
  /** How its creator was signed in when they made it. */
  signIn: 'password' | 'sso';
}

/**
 * Verifies a module API key (`X-Api-Key` of device testing, `X-API-KEY` of health checks): a live key
 * acts as the user who created it, in the workspace it was made in, and only while that user can still
 * enter that workspace. Anything else is `null` (the caller answers 401).
 */
export function moduleKeyVerifier(options: {
  /** The value's prefix (`dfk_`, `hck_`); other values are refused before any look-up. */
  prefix: string;
  /** Names the key in the principal's `jti` (`df-api-key:<id>`). */
  jtiKind: string;
  activeByHash: (keyHash: string) => Promise<LiveKey | null>;
  resolveWorkspace: (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>;
  /** Whether the key waits for an administrator's approval (single sign-on required): 403 CREDENTIAL_NEEDS_APPROVAL. */
  held?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>;
}) {
  return async (key: string): Promise<{ principal: Principal; workspace: ActiveWorkspace } | null> => {
    if (!key.startsWith(options.prefix) || key.length > 200) return null;
    const found = await options.activeByHash(hashToken(key));
    if (!found) return null;
    if (await options.held?.({ credentialId: found.keyId, userId: found.userId, signIn: found.signIn })) throw credentialNeedsApproval();
    const workspace = await options.resolveWorkspace({ userId: found.userId, companyId: found.companyId }, found.workspaceId);
    if (!workspace) return null;
    return {
      principal: {
        kind: 'user',
        // Its requests count against a budget of their own, not its user's (shared/http/rate-limit.ts).
        credentialId: found.keyId,
        userId: found.userId,
        companyId: found.companyId,
        tokenWorkspaceId: found.workspaceId,
        jti: `${options.jtiKind}:${found.keyId}`,
        // A key lives until it is revoked; the principal's expiry is only a formality here.
        exp: Number.MAX_SAFE_INTEGER,
        iat: Math.floor(found.createdAt.getTime() / 1000),
        issuedAtMs: found.createdAt.getTime(),
      },
      workspace,
    };
  };
}

/** The refusal of a credential held where single sign-on is required (docs/modules/identity.md, "What enforcement ends"). */
export const credentialNeedsApproval = () =>
  new AppError('CREDENTIAL_NEEDS_APPROVAL', 'This credential was made from a password sign-in and its company requires single sign-on: an administrator must approve it');
