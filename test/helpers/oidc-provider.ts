import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';
import Provider from 'oidc-provider';

/** How the next token answer is spoiled: its ID token's payload changed after signing, or re-signed already expired. */
export type Tamper = 'none' | 'signature' | 'expired';

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client's redirect URIs (known once the platform has the provider's id) and starts answering. */
  open(redirectUris: string[]): void;
  /**
   * Adds (or replaces) a person the provider knows; `email_verified` is `true` unless given. Any other
   * claim (`preferred_username`, `upn`, a string `email_verified`) is answered as given.
   */
  addAccount(sub: string, claims: { email?: string; name?: string; groups?: string[]; email_verified?: unknown; preferred_username?: string; [claim: string]: unknown }): void;
  /** Who signs in at the next login screen (the test plays the person at the provider). */
  signInAs(sub: string): void;
  tamper(mode: Tamper): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (`oidc-provider`) on a free loopback port, with one confidential client, left
 * at its defaults where OpenID Connect Core 5.4 is concerned: once it issues an access token, the claims of
 * the scopes asked for (`email`, `profile`, `groups`) are answered from UserInfo, not put in the ID token.
 * Its login screen signs in whoever `signInAs` names; consent is given for the client up front. A
 * middleware can spoil the ID token of the token endpoint's answer (tampered or expired), as a
 * man in the middle or a stale replay would.
 */
export async function startOidcProvider(): Promise<TestOidcProvider> {
  const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, Record<string, unknown>>();
  let next: string | null = null;
  let tamper: Tamper = 'none';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'qa-platform';
  const clientSecret = 'a-client-secret-of-32-characters!';
  const open = (redirectUris: string[]) => {
  const provider: Provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [jwk as never] },
    cookies: { keys: ['cookie-key-for-tests'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username', 'upn'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => (accounts.has(sub) ? { accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) } : undefined),
    // Consent given up front: a first-party client.
    loadExistingGrant: async (ctx): Promise<InstanceType<Provider["Grant"]>> => {
      const grant: InstanceType<Provider["Grant"]> = new provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
  });
  provider.use(async (ctx, nextMiddleware) => {
    const m = /^\/interaction\/([^/]+)$/.exec(ctx.path);
    if (m) {
      if (!next) throw new Error('the test named nobody to sign in');
      ctx.redirect(await provider.interactionResult(ctx.req, ctx.res, { login: { accountId: next } }, { mergeWithLastSubmission: false }));
      return;
    }
    await nextMiddleware();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && tamper !== 'none' && body?.id_token) body.id_token = await spoil(body.id_token, tamper, privateKey);
  });
  server.on('request', provider.callback());
  };
  return {
    open,
    issuer,
    clientId,
    clientSecret,
    addAccount: (sub, claims) => accounts.set(sub, { email_verified: true, ...claims }),
    signInAs: (sub) => {
      next = sub;
    },
    tamper: (mode) => {
      tamper = mode;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function spoil(idToken: string, mode: Tamper, key: jose.CryptoKey): Promise<string> {
  const [header, payload, signature] = idToken.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  if (mode === 'signature') {
    // Someone else's address, the signature left as it was.
    claims.email = 'intruder@corp.test';
    return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
  }
  const now = Math.floor(Date.now() / 1000);
  return new jose.SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 }).setProtectedHeader(JSON.parse(Buffer.from(header, 'base64url').toString())).sign(key);
}
