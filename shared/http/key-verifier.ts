import { hashToken } from '#shared/auth/index.js';
import type { ActiveWorkspace, Principal } from './principal.js';

/** Who a live module API key acts for, as its read model finds it by hash. */
export interface LiveKey {
  keyId: string;
  userId: number;
  companyId: number;
  workspaceId: number;
  createdAt: Date;
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
}) {
  return async (key: string): Promise<{ principal: Principal; workspace: ActiveWorkspace } | null> => {
    if (!key.startsWith(options.prefix) || key.length > 200) return null;
    const found = await options.activeByHash(hashToken(key));
    if (!found) return null;
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
