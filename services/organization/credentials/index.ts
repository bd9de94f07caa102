import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { CredentialsOptions } from './http.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { oauthClientRoutes } from './routes/oauth-clients.js';

export { API_KEY_PREFIX, CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, CredentialService, type ResolveWorkspace } from './service.js';
export { CREDENTIAL_EVENT_TYPES, type CredentialEvent } from '#events/organization/credentials.js';
export { tokenRoutes } from './routes/token.js';
export type { CredentialsOptions } from './http.js';

/**
 * The credentials of the `/v1` set: API keys and OAuth clients (`/api/v1/api-keys`,
 * `/api/v1/oauth-clients`). Anyone may create their own (they act as their creator, never beyond the
 * creator's permissions, in the workspace active at creation); everyone sees and revokes their own;
 * `API_KEY_MANAGE` sees and revokes all of the workspace's. Another user's or workspace's credential
 * is a 404 to those who may not manage it. The OAuth token endpoint (`POST /oauth/token`) lives at
 * the root, outside the module's prefix: `tokenRoutes`, registered by the module's `tokenRoutes`.
 */
export const credentialsFeature = fp<CredentialsOptions>(
  routePlugins(apiKeyRoutes, oauthClientRoutes),
  { name: 'organization-credentials', fastify: '5.x' },
);
