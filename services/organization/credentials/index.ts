import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform.js';
import { credentialRoutes } from './routes.js';
import { CredentialService, type ResolveWorkspace } from './service.js';
import { tokenRoutes } from './token-routes.js';

export { API_KEY_PREFIX, CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, CredentialService } from './service.js';
export { CREDENTIAL_EVENT_TYPES, type CredentialEvent } from '#events/organization/credentials.js';

/**
 * The credentials of the `/v1` set: API keys and OAuth clients (`/api/v1/api-keys`,
 * `/api/v1/oauth-clients`), the OAuth token endpoint (`/oauth/token`, served at the root), and their
 * verification for the gateway's access control.
 */
export function createCredentials(platform: Platform, deps: { resolveWorkspace: ResolveWorkspace }) {
  const service = new CredentialService(platform);
  return {
    service,
    /** For `installAccessControl({ scopedCredentials })`. */
    scoped: service.scopedCredentials(),
    /** Under `/api/v1`. */
    routes: async (app: FastifyInstance) => {
      await app.register(credentialRoutes, { platform, credentials: service });
    },
    /** At the root: `POST /oauth/token`. */
    tokenRoutes: async (app: FastifyInstance) => {
      await app.register(tokenRoutes, { platform, credentials: service, resolveWorkspace: deps.resolveWorkspace });
    },
  };
}

export type Credentials = ReturnType<typeof createCredentials>;
