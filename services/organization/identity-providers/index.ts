import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import { loadSecretBox } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { CommandContext } from '#shared/es/index.js';
import type { IdentityProviderRow } from '#projections/org-identity-providers/index.js';
import { currentRequest } from '#shared/request-context.js';
import type { Platform } from '../../platform.js';
import type { AuthService, ClientInfo, TokenPair } from '../auth/service.js';
import { DirectoryRefusal, LdapDirectory } from './ldap.js';
import { OidcClients } from './oidc.js';
import { providerRoutes } from './routes/providers.js';
import { signInRoutes } from './routes/sign-in.js';
import { SamlClients } from './saml.js';
import { identityProtocols } from './protocols.js';
import { IdentityProviderService } from './service.js';
import { ProviderSignIn } from './sign-in.js';
import { SsoFlows } from './sso.js';
import type { IdentityProviderFeatureOptions } from './options.js';

export { IdentityProviderService } from './service.js';
export { applyGrants, grantsOf, type ExternalIdentity, type Grants } from './provisioning.js';

export type { IdentityProviderFeatureOptions } from './options.js';

/** The feature's routes under `/api/v1`: administration and the public sign-in flows. */
export const identityProvidersFeature = fp<IdentityProviderFeatureOptions>(
  routePlugins(providerRoutes, signInRoutes),
  { name: 'organization-identity-providers', fastify: '5.x' },
);

/**
 * Builds identity providers: their administration, the sign-in flows through them (OpenID Connect, SAML 2.0)
 * and the directory sign-in (LDAP) that `POST /auth/login` hands a `providerId` to.
 */
export function createIdentityProviders(platform: Platform, auth: AuthService) {
  const { SECRETS_KEY, SECRETS_PREVIOUS_KEYS, DATA_DIR } = platform.config;
  // A provider that enforces ends its company's password sessions there (docs/modules/identity.md, "What enforcement ends").
  const afterWrite = async (provider: IdentityProviderRow, ctx: CommandContext) => {
    if (!provider.enabled || !provider.enforce) return;
    const ended = await auth.enforcement.endPasswordSessions(provider.companyId, { actorId: typeof ctx.actorId === 'number' ? ctx.actorId : null, companyId: provider.companyId });
    if (ended > 0) platform.logger.info({ companyId: provider.companyId, providerId: provider.id, ended }, 'single sign-on required: password sign-in sessions ended');
  };
  const providers = new IdentityProviderService(platform, loadSecretBox({ key: SECRETS_KEY, previousKeys: SECRETS_PREVIOUS_KEYS, dataDir: DATA_DIR }), afterWrite);
  const oidc = new OidcClients(() => platform.now());
  const saml = new SamlClients(platform.kv);
  const ldap = new LdapDirectory({
    allowPrivate: platform.config.LDAP_ALLOW_PRIVATE_ADDRESSES,
    logFailure: (err) => platform.logger.info({ requestId: currentRequest()?.requestId, err }, 'trying a directory’s settings failed'),
  });
  const signIn = new ProviderSignIn(platform, auth);
  const protocols = identityProtocols({ oidc, saml, ldap });
  const flows = new SsoFlows(platform, providers, protocols, signIn);

  const check = async (id: number, companyId: number): Promise<Record<string, unknown>> => {
    const provider = providers.opened(await providers.get(companyId, id));
    return protocols[provider.type].check(provider, flows.callbackUrl(provider.id));
  };

  /** Sign-in with a directory's username and password (`POST /auth/login` with `providerId`). */
  const directorySignIn = async (providerId: number, username: string, password: string, client: ClientInfo): Promise<TokenPair> => {
    const provider = await providers.enabled(providerId);
    const directory = protocols[provider.type].directory;
    if (!directory) throw new AppError('BAD_REQUEST', `${provider.name} signs in through its own page: GET /api/v1/auth/sso/${provider.id}/start`);
    await auth.throttle.check(`ldap:${provider.id}:${username}`, client.address);
    try {
      const identity = await directory.authenticate(provider, username, password);
      await auth.throttle.recordSuccess(`ldap:${provider.id}:${username}`, client.address);
      return await signIn.signIn(provider, identity, client);
    } catch (err) {
      if (err instanceof DirectoryRefusal) {
        await auth.throttle.recordFailure(`ldap:${provider.id}:${username}`, client.address);
        if (err.email) await signIn.refused(provider, err.email, client, 'bad_password');
      }
      throw err;
    }
  };

  /**
   * At start-up, in the background (the start waits for no read model): secrets under an older key, or
   * not sealed yet, are sealed under the current one. A failure is logged and tried again at the next start.
   */
  const start = () => {
    void providers.resealSecrets().then(
      (count) => {
        if (count > 0) platform.logger.info({ count }, 'identity provider secrets sealed under the current SECRETS_KEY');
      },
      (err: unknown) => platform.logger.error({ err }, 'identity provider secrets were not sealed again under the current SECRETS_KEY; the next start tries again'),
    );
  };

  const options: IdentityProviderFeatureOptions = { platform, providers, flows, check };
  return { providers, directorySignIn, options, start };
}

export type IdentityProviders = ReturnType<typeof createIdentityProviders>;
