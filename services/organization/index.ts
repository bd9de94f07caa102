import type { PersonalReadModels } from './users/erase.js';
import type { FastifyInstance } from 'fastify';
import { orgAccessReviewsProjection } from '#projections/org-access-reviews/index.js';
import { orgAuditProjection } from '#projections/org-audit/index.js';
import { orgCredentialsProjection } from '#projections/org-credentials/index.js';
import { orgDirectoryProjection, findAccessibleWorkspace } from '#projections/org-directory/index.js';
import { signInLogProjection } from '#projections/sign-in-log/index.js';
import { signInSessionsProjection } from '#projections/sign-in-sessions/index.js';
import { orgDomainsProjection } from '#projections/org-domains/index.js';
import { orgIdentityProvidersProjection } from '#projections/org-identity-providers/index.js';
import { orgWebhooksProjection } from '#projections/org-webhooks/index.js';
import type { Projection } from '#projections/types.js';
import type { ActiveWorkspace, Principal } from '#shared/http/principal.js';
import type { Platform } from '../platform.js';
import { AccessReviewService, accessReviewFeature } from './access-review/index.js';
import { AuditChain, auditFeature } from './audit/index.js';
import { AuditShipper, auditShippingFeature } from './audit-shipping/index.js';
import { AuthService, authFeature } from './auth/index.js';
import { bootstrapAdmin } from './bootstrap.js';
import { claimsFeature } from './claims/index.js';
import { companiesFeature } from './companies/index.js';
import { CredentialService, credentialsFeature, tokenRoutes } from './credentials/index.js';
import { feature, registerFeatures } from '#shared/http/features.js';
import { permissionsOf, rolesFeature } from './roles/index.js';
import { teamsFeature } from './teams/index.js';
import { usersFeature } from './users/index.js';
import { workspacesFeature } from './workspaces/index.js';
import { DomainService, domainsFeature } from './domains/index.js';
import { observabilityFeature } from './observability/index.js';
import { createIdentityProviders, identityProvidersFeature } from './identity-providers/index.js';
import { ScimService, scimFeature, scimProtocolFeature } from './scim/index.js';
import { orgScimProjection } from '#projections/org-scim/index.js';
import { createWebhooks, webhooksFeature } from './webhooks/index.js';

export { AuthService, AccessRevocations, type RevocableToken } from './auth/index.js';
export { MODULE_KEYS, type ModuleKey } from '#events/organization/modules.js';

/** The read models the organization module owns. */
export const organizationProjections: readonly Projection[] = [
  orgDirectoryProjection,
  signInLogProjection,
  signInSessionsProjection,
  orgAuditProjection,
  orgCredentialsProjection,
  orgDomainsProjection,
  orgIdentityProvidersProjection,
  orgScimProjection,
  orgWebhooksProjection,
  orgAccessReviewsProjection,
];

/** The organization module: its routes under `/api/v1`, and what the gateway asks of it. */
export type { PersonalReadModels } from './users/erase.js';

export interface OrganizationModuleOptions {
  /** The read models an erasure rebuilds (services/personal-read-models.ts); without it none are. */
  personalReadModels?: PersonalReadModels;
}

export function createOrganizationModule(platform: Platform, options: OrganizationModuleOptions = {}) {
  const auth = new AuthService(platform);
  const resolveWorkspace = (user: { userId: number; companyId: number }, workspaceId: number) => findAccessibleWorkspace(platform.db, user, workspaceId);
  const credentialService = new CredentialService(platform, (c) => auth.enforcement.holds(c));
  const identity = createIdentityProviders(platform, auth);
  const scim = new ScimService(platform, auth.revocations, (c) => auth.enforcement.holds(c));
  const webhooks = createWebhooks(platform);
  const auditChain = new AuditChain(platform);
  const auditShipper = new AuditShipper(platform);
  const accessReviews = new AccessReviewService(platform);
  // A domain verified where a provider already enforces ends its people's password sessions (docs/modules/identity.md, "What enforcement ends").
  const domains = new DomainService(platform, async (companyId, ctx) => {
    await auth.enforcement.endPasswordSessions(companyId, { actorId: typeof ctx.actorId === 'number' ? ctx.actorId : null, companyId });
  });
  const features = [
    feature(companiesFeature, {}),
    feature(claimsFeature, {}),
    feature(authFeature, { platform, auth, directorySignIn: identity.directorySignIn }),
    feature(usersFeature, { platform, auth, ...(options.personalReadModels ? { personalReadModels: options.personalReadModels } : {}) }),
    feature(rolesFeature, { platform }),
    feature(teamsFeature, { platform }),
    feature(workspacesFeature, { platform, auth }),
    feature(auditFeature, { platform, chain: auditChain }),
    feature(auditShippingFeature, { shipper: auditShipper }),
    feature(accessReviewFeature, { platform, reviews: accessReviews }),
    feature(credentialsFeature, { platform, credentials: credentialService }),
    feature(domainsFeature, { platform, domains }),
    feature(identityProvidersFeature, identity.options),
    feature(scimFeature, { platform, scim }),
    feature(webhooksFeature, { platform, webhooks: webhooks.service }),
    feature(observabilityFeature, { platform }),
  ];
  return {
    auth,
    /** `/v1` API keys and OAuth clients: their verification for access control, and `/oauth/token`. */
    credentials: {
      service: credentialService,
      /** For `installAccessControl({ scopedCredentials })`. */
      scoped: credentialService.scopedCredentials(),
      /** At the root, outside `/api/v1`: `POST /oauth/token`. */
      tokenRoutes: async (app: FastifyInstance) => {
        await app.register(tokenRoutes, { platform, credentials: credentialService, resolveWorkspace });
      },
    },
    /** At the root, outside `/api/v1`: the SCIM 2.0 service at `/scim/v2`, authenticated by its own tokens. */
    scimRoutes: async (app: FastifyInstance) => {
      await app.register(scimProtocolFeature, { platform, scim });
    },
    /** Whether this user may enter this workspace, and what it is entitled to. */
    resolveWorkspace,
    /** The caller's permission keys in a workspace. */
    permissionsOf: (principal: Principal, workspace: ActiveWorkspace | null) => permissionsOf(platform.db, principal, workspace),
    /**
     * Creates the bootstrap administrator once, when configured; seals identity provider and webhook
     * secrets under the current key (in the background); starts sending webhooks, signing the chain's checkpoints and shipping the audit history to the SIEM.
     */
    start: async () => {
      await bootstrapAdmin(platform, auth);
      identity.start();
      await webhooks.start();
      await auditChain.start();
      await auditShipper.start();
    },
    /** Stops sending webhooks (what is due stays queued for the next start), signing checkpoints and shipping the audit history. */
    stop: async () => {
      await auditShipper.stop();
      await webhooks.stop();
      await auditChain.stop();
    },
    /** The history's chain: signing keys, checkpoints, verification. */
    auditChain,
    /** Every feature, under `/api/v1`. */
    routes: (app: FastifyInstance) => registerFeatures(app, features),
  };
}

export type OrganizationModule = ReturnType<typeof createOrganizationModule>;
