import { randomToken, hashToken } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { PublicAddress } from '#shared/public-address.js';
import { currentRequest } from '#shared/request-context.js';
import type { Platform } from '../../platform.js';
import type { ClientInfo, TokenPair } from '../auth/service.js';
import type { IdentityProviderService } from './service.js';
import type { FlowMemory, IdentityProtocols } from './protocols.js';
import type { ProviderSignIn } from './sign-in.js';

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
  /** What the provider's protocol must check in the answer (a PKCE verifier and nonce, a SAML request id). */
  memory: FlowMemory;
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
    private readonly protocols: IdentityProtocols,
    private readonly signIn: ProviderSignIn,
  ) {}

  callbackUrl(providerId: number): string {
    return this.platform.publicAddress.link(`/api/v1/auth/sso/${providerId}/callback`);
  }

  /** The provider's URL the browser goes to. */
  async start(providerId: number): Promise<string> {
    const provider = await this.providers.enabled(providerId);
    const browser = this.protocols[provider.type].browser;
    if (!browser) throw new AppError('BAD_REQUEST', `${provider.name} is a directory: sign in with its username and password`);
    const state = randomToken(24);
    const { url, memory } = await browser.start(provider, this.callbackUrl(provider.id), state);
    const stored: StoredFlow = { providerId, memory };
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

  /**
   * The provider's answer at the callback — OpenID Connect's query (GET), SAML's form (POST): checked by
   * the provider's protocol, the person signed in.
   */
  async callback(providerId: number, answer: URLSearchParams, client: ClientInfo): Promise<string> {
    return this.landing(async () => {
      const provider = await this.providers.enabled(providerId);
      const browser = this.protocols[provider.type].browser;
      if (!browser) throw new AppError('SSO_FAILED', `${provider.name} does not sign in through the browser`);
      const flow = await this.takeFlow(providerId, browser.stateOf(answer));
      const identity = await browser.finish(provider, this.callbackUrl(providerId), answer, flow.memory);
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
