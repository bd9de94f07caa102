import { activeHcApiKeyByHash, findHcApiKey, listHcApiKeys } from '#projections/hc-api-keys/index.js';
import { moduleKeyVerifier } from '#shared/http/key-verifier.js';
import type { ActiveWorkspace } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import { revocableKeyRoutes } from '../../revocable-key-routes.js';
import { healthcheckApiKeyDecider } from './decide.js';
import { healthcheckApiKeyStream } from '#events/healthcheck/keys.js';

export const HEALTHCHECK_KEY_PREFIX = 'hck_';

/**
 * Verifies an `X-API-KEY`: a live key acts as the user who created it, in the workspace it was made
 * in, and only while that user can still enter that workspace — and, where its company requires single
 * sign-on, only once approved if it was made from a password sign-in (403 CREDENTIAL_NEEDS_APPROVAL).
 */
export function healthcheckApiKeyVerifier(
  platform: Platform,
  resolveWorkspace: (user: { userId: number; companyId: number }, workspaceId: number) => Promise<ActiveWorkspace | null>,
  held?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>,
) {
  return moduleKeyVerifier({ prefix: HEALTHCHECK_KEY_PREFIX, jtiKind: 'hc-api-key', activeByHash: (hash) => activeHcApiKeyByHash(platform.db, hash), resolveWorkspace, ...(held ? { held } : {}) });
}

/**
 * `/healthcheck/api/v1/api-keys`: create (the value is shown once), list and revoke health-check API
 * keys. Managing keys takes a user's bearer token with HEALTHCHECK_MANAGE; a key cannot manage keys.
 */
export const healthcheckApiKeyRoutes = (platform: Platform, held?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>) =>
  revocableKeyRoutes({
    platform,
    path: '/healthcheck/api/v1/api-keys',
    tags: ['Health checks: API keys'],
    schemaId: 'HealthcheckApiKey',
    what: 'health-check API key',
    valuePrefix: HEALTHCHECK_KEY_PREFIX,
    permission: 'HEALTHCHECK_MANAGE',
    readModel: 'hc-api-keys',
    list: listHcApiKeys,
    find: findHcApiKey,
    decider: healthcheckApiKeyDecider,
    stream: healthcheckApiKeyStream,
    create: 'CreateHealthcheckApiKey',
    revoke: 'RevokeHealthcheckApiKey',
    readOne: true,
    ...(held ? { hold: { held, kind: 'hc-api-key' as const } } : {}),
  });
