import type { FastifyInstance } from 'fastify';
import { orgAuditProjection } from '#projections/org-audit/index.js';
import { orgCredentialsProjection } from '#projections/org-credentials/index.js';
import { orgDirectoryProjection, findAccessibleWorkspace } from '#projections/org-directory/index.js';
import { signInLogProjection } from '#projections/sign-in-log/index.js';
import { signInSessionsProjection } from '#projections/sign-in-sessions/index.js';
import { orgIdentityProvidersProjection } from '#projections/org-identity-providers/index.js';
import type { Projection } from '#projections/types.js';
import type { ActiveWorkspace, Principal } from '#shared/http/principal.js';
import type { Platform } from '../platform.js';
import { auditRoutes } from './audit/routes.js';
import { authRoutes } from './auth/routes.js';
import { AuthService } from './auth/service.js';
import { bootstrapAdmin } from './bootstrap.js';
import { createCredentials } from './credentials/index.js';
import { createIdentityProviders, identityProvidersFeature } from './identity-providers/index.js';
import { permissionsOf } from './roles/permissions-of.js';
import { roleRoutes } from './roles/routes.js';
import { teamRoutes } from './teams/routes.js';
import { userRoutes } from './users/routes.js';
import { workspaceMemberRoutes } from './workspaces/member-routes.js';
import { workspaceRoutes } from './workspaces/routes.js';

export { AuthService } from './auth/service.js';
export { AccessRevocations, type RevocableToken } from './auth/revocation.js';
export { MODULE_KEYS, type ModuleKey } from '#events/organization/modules.js';

/** The read models the organization module owns. */
export const organizationProjections: readonly Projection[] = [orgDirectoryProjection, signInLogProjection, signInSessionsProjection, orgAuditProjection, orgCredentialsProjection, orgIdentityProvidersProjection];

/** The organization module: its routes under `/api/v1`, and what the gateway asks of it. */
export function createOrganizationModule(platform: Platform) {
  const auth = new AuthService(platform);
  const resolveWorkspace = (user: { userId: number; companyId: number }, workspaceId: number) => findAccessibleWorkspace(platform.db, user, workspaceId);
  /** `/v1` API keys and OAuth clients: routes, `/oauth/token`, and their verification for access control. */
  const credentials = createCredentials(platform, { resolveWorkspace });
  const identity = createIdentityProviders(platform, auth);
  return {
    auth,
    credentials,
    /** Whether this user may enter this workspace, and what it is entitled to. */
    resolveWorkspace,
    /** The caller's permission keys in a workspace. */
    permissionsOf: (principal: Principal, workspace: ActiveWorkspace | null) => permissionsOf(platform.db, principal, workspace),
    /** Creates the bootstrap administrator once, when configured. */
    start: () => bootstrapAdmin(platform, auth),
    routes: async (app: FastifyInstance) => {
      await app.register(authRoutes, { platform, auth, directorySignIn: identity.directorySignIn });
      await app.register(userRoutes, { platform, auth });
      await app.register(roleRoutes, { platform });
      await app.register(teamRoutes, { platform });
      await app.register(workspaceRoutes, { platform, auth });
      await app.register(workspaceMemberRoutes, { platform });
      await app.register(auditRoutes, { platform });
      await app.register(credentials.routes);
      await app.register(identityProvidersFeature, identity.options);
    },
  };
}

export type OrganizationModule = ReturnType<typeof createOrganizationModule>;
