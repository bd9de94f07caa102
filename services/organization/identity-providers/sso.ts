import { randomToken, hashToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { PublicAddress } from '#shared/public-address.js';
import { currentRequest } from '#shared/request-context.js';
import type { Platform } from '../../platform.js';
import type { ClientInfo, TokenPair } from '../auth/service.js';
import type { OidcClients, OidcFlow } from './oidc.js';
import type { IdentityProviderService } from './service.js';
import type { ProviderSignIn } from './sign-in.js';
import type { SamlClients } from './saml.js';

/** How long a started sign-in may take at the provider. */
const FLOW_TTL_MS = 10 * 60_000;
/** How long the console has to exchange the one-time code of a finished sign-in for its token pair. */
const CODE_TTL_MS = 60_000;
const flowKey = (state: string) => `sso:flow:${hashToken(state)}`;
const codeKey = (code: string) => `sso:code:${hashToken(code)}`;

/** Where the console lands after a sign-in through a provider. */
export const CONSOLE_LANDING = '/sso';

/**
 * The console's landing page with `query` (`code` or `error`): at `APP_URL` when the operator set it —
 * the console may be served at another address than the one that answered the provider's callback —
 * else relative to the callback's own address.
 */
export function consoleLanding(address: Pick<PublicAddress, 'configured' | 'link'>, query: Record<string, string>): string {
  const path = `${CONSOLE_LANDING}?${new URLSearchParams(query).toString()}`;
  return address.configured ? address.link(path) : path;
}

interface StoredFlow {
  providerId: number;
  oidc?: OidcFlow;
  /** The SAML request id the answer must be in response to. */
  samlRequestId?: string;
}

/**
 * The browser's round trip through a provider: `start` sends it to the provider with a single-use
 * state; the callback checks the provider's answer, signs the person in, and sends the browser to the
 * console with a one-time code (never the tokens in a URL), which the console exchanges for the pair.
 * A failure lands on the console's sign-in page with the error's code only: its message may quote the
 * provider (a SAML StatusMessage, an OpenID error_description), which no one checked, so it stays in
 * the server's log beside the request id and the console says what the code means in its own words.
 */
export class SsoFlows {
  constructor(
    private readonly platform: Platform,
    private readonly providers: IdentityProviderService,
    private readonly oidc: OidcClients,
    private readonly saml: SamlClients,
    private readonly signIn: ProviderSignIn,
  ) {}

  callbackUrl(providerId: number): string {
    return this.platform.publicAddress.link(`/api/v1/auth/sso/${providerId}/callback`);
  }

  /** The provider's URL the browser goes to. */
  async start(providerId: number): Promise<string> {
    const provider = await this.providers.enabled(providerId);
    const state = randomToken(24);
    let url: string;
    let stored: StoredFlow;
    if (provider.type === 'oidc') {
      const started = await this.oidc.start(provider, this.callbackUrl(provider.id), state);
      url = started.url;
      stored = { providerId, oidc: started.flow };
    } else if (provider.type === 'saml') {
      const started = await this.saml.start(provider, this.callbackUrl(provider.id), state);
      url = started.url;
      stored = { providerId, samlRequestId: started.requestId };
    } else {
      throw new AppError('BAD_REQUEST', `${provider.name} is a directory: sign in with its username and password`);
    }
    await this.platform.kv.set(flowKey(state), JSON.stringify(stored), { ttlMs: FLOW_TTL_MS });
    return url;
  }

  /** The flow a callback's state belongs to, used up; SSO_FAILED for an unknown, expired, used or another provider's state. */
  private async takeFlow(providerId: number, state: string | undefined): Promise<StoredFlow> {
    const raw = state ? await this.platform.kv.take(flowKey(state)) : null;
    const flow = raw ? (JSON.parse(raw) as StoredFlow) : null;
    if (!flow || flow.providerId !== providerId) throw new AppError('SSO_FAILED', 'This sign-in was not started here, took too long or was already finished; start again');
    return flow;
  }

  /** The OpenID Connect callback (GET with `code` and `state`, or `error`). */
  async oidcCallback(providerId: number, query: URLSearchParams, client: ClientInfo): Promise<string> {
    return this.landing(async () => {
      const flow = await this.takeFlow(providerId, query.get('state') ?? undefined);
      const provider = await this.providers.enabled(providerId);
      if (provider.type !== 'oidc' || !flow.oidc) throw new AppError('SSO_FAILED', 'Not an OpenID Connect sign-in');
      const error = query.get('error');
      if (error) throw new AppError('SSO_FAILED', `${provider.name} refused the sign-in: ${error} ${query.get('error_description') ?? ''}`.trim());
      const callback = new URL(this.callbackUrl(providerId));
      callback.search = query.toString();
      const identity = await this.oidc.finish(provider, callback, query.get('state')!, flow.oidc);
      return this.signIn.signIn(provider, identity, client);
    });
  }

  /** The SAML assertion consumer service (POST with `SAMLResponse` and `RelayState`). */
  async samlCallback(providerId: number, body: { SAMLResponse?: string; RelayState?: string }, client: ClientInfo): Promise<string> {
    return this.landing(async () => {
      const flow = await this.takeFlow(providerId, body.RelayState);
      const provider = await this.providers.enabled(providerId);
      if (provider.type !== 'saml' || !flow.samlRequestId || !body.SAMLResponse) throw new AppError('SSO_FAILED', 'Not a SAML sign-in');
      const identity = await this.saml.finish(provider, this.callbackUrl(providerId), body.SAMLResponse, flow.samlRequestId);
      return this.signIn.signIn(provider, identity, client);
    });
  }

  /** The pair of a finished sign-in, once. */
  async exchange(code: string): Promise<TokenPair> {
    const raw = await this.platform.kv.take(codeKey(code));
    if (!raw) throw new AppError('SSO_FAILED', 'Unknown, used or expired sign-in code; sign in again');
    return JSON.parse(raw) as TokenPair;
  }

  /** The console URL a callback sends the browser to: a one-time code, or the failure's code. */
  private async landing(signIn: () => Promise<TokenPair>): Promise<string> {
    try {
      const pair = await signIn();
      const code = randomToken(24);
      await this.platform.kv.set(codeKey(code), JSON.stringify(pair), { ttlMs: CODE_TTL_MS });
      return consoleLanding(this.platform.publicAddress, { code });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.platform.logger.info({ requestId: currentRequest()?.requestId, code: err.code, err: err.message }, 'sign-in through an identity provider refused');
      return consoleLanding(this.platform.publicAddress, { error: err.code });
    }
  }
}
