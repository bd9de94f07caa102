import { activeKeyByHash, findApiKey, listApiKeys } from '#projections/df-api-keys/index.js';
import { moduleKeyVerifier } from '#shared/http/key-verifier.js';
import type { ActiveWorkspace } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { revocableKeyRoutes } from '../../revocable-key-routes.js';
import { apiKeyDecider } from './decide.js';
import { apiKeyStream } from '#events/df/keys.js';

const KEY_PREFIX = 'dfk_';

/**
 * Verifies an `X-Api-Key`: a live key acts as the user who created it, in the workspace it was made
 * in, and only while that user can still enter that workspace.
 */
export function apiKeyVerifier(
  platform: Platform,
  resolveWorkspace: (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>,
  held?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>,
) {
  return moduleKeyVerifier({ prefix: KEY_PREFIX, jtiKind: 'df-api-key', activeByHash: (hash) => activeKeyByHash(platform.db, hash), resolveWorkspace, ...(held ? { held } : {}) });
}

/** `/df/api/keys`: create (the value is shown once), list, read and revoke device-testing API keys. */
export const apiKeyRoutes = (
  platform: Platform,
  quota?: { checkApiKey(companyId: number): Promise<void> },
  held?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>,
) =>
  revocableKeyRoutes({
    platform,
    path: '/api/keys',
    tags: ['Device testing: API keys'],
    schemaId: 'DfApiKey',
    what: 'API key',
    valuePrefix: KEY_PREFIX,
    permission: 'df:key:manage',
    readModel: 'df-api-keys',
    list: listApiKeys,
    find: findApiKey,
    decider: apiKeyDecider,
    stream: apiKeyStream,
    create: 'CreateApiKey',
    revoke: 'RevokeApiKey',
    readOne: true,
    // The plan's API-key limit (docs/modules/device-testing.md, "Quotas").
    ...(quota ? { beforeCreate: (c: { companyId: number }) => quota.checkApiKey(c.companyId) } : {}),
    ...(held ? { hold: { held, kind: 'df-api-key' as const } } : {}),
  });
