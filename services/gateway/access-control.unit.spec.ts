import { exportPKCS8, generateKeyPair } from 'jose';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKeys } from '#shared/auth/index.js';
import { createClientTokenService, createTokenService, looksLikeClientToken, type ClientTokenService, type TokenService } from '#shared/auth/index.js';
import { installErrorHandling } from '#shared/http/errors.js';
import type { CredentialScope, Principal } from '#shared/http/principal.js';
import { installAccessControl, type ScopedCredential } from './access-control.js';
import { acceptsScopedCredential, areaScopeFor, isWorkspaceFree, scopeAllows, scopeFor } from './policy.js';

/** A new EdDSA key pair for the token services of one describe block. */
async function newSigningKeys() {
  const { privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  return loadSigningKeys({ alg: 'EdDSA', privateKeyPem: await exportPKCS8(privateKey), dataDir: '/nonexistent/access-control-unit-spec' });
}

/** The error code, in the platform's shape or the /v1 envelope (`{success: false, error: {code}}`). */
const codeOf = (body: { code?: string; error?: { code?: string } }): string | undefined => body.code ?? body.error?.code;

describe('/v1 scope policy', () => {
  it('maps methods to scopes, and admin allows every method', () => {
    expect(['GET', 'HEAD', 'OPTIONS'].map(scopeFor)).toEqual(['read', 'read', 'read']);
    expect(['POST', 'PUT', 'PATCH'].map(scopeFor)).toEqual(['write', 'write', 'write']);
    expect(scopeFor('DELETE')).toBe('delete');
    expect(scopeFor('PROPFIND')).toBe('admin');
    expect(scopeAllows(['read'], 'GET')).toBe(true);
    expect(scopeAllows(['read'], 'POST')).toBe(false);
    expect(scopeAllows(['write'], 'PATCH')).toBe(true);
    expect(scopeAllows(['write'], 'DELETE')).toBe(false);
    expect(scopeAllows(['write'], 'GET')).toBe(false);
    expect(scopeAllows(['delete'], 'DELETE')).toBe(true);
    expect(scopeAllows(['admin'], 'DELETE')).toBe(true);
    expect(scopeAllows(['admin'], 'PROPFIND')).toBe(true);
    expect(scopeAllows(['read', 'write', 'delete'], 'PROPFIND')).toBe(false);
    expect(scopeAllows([], 'GET')).toBe(false);
  });

  it('accepts scoped credentials on the /v1 set and the areas of a pipeline key, by whole segments', () => {
    for (const p of ['/v1', '/v1/projects', '/v1/test-cases/abc', '/df/api/devices', '/df/wd/session', '/api/v1/workspaces/7/webhooks']) expect(acceptsScopedCredential(p), p).toBe(true);
    for (const p of ['/v1x', '/api/v1/users', '/tmt/api/v1/x', '/df/api/keys', '/api/v1/workspaces/7', '/oauth/token', '/']) expect(acceptsScopedCredential(p), p).toBe(false);
  });

  it('names the scope of an area and the workspace a webhooks path is in', () => {
    expect(areaScopeFor('/df/wd/session/abc/url')).toMatchObject({ scope: 'devices', workspaceId: null });
    expect(areaScopeFor('/df/devtools/sessions/abc')).toMatchObject({ scope: 'devices' });
    expect(areaScopeFor('/api/v1/workspaces/12/webhooks/3/deliveries')).toMatchObject({ scope: 'webhooks', workspaceId: 12 });
    expect(areaScopeFor('/v1/projects')).toBeNull();
    expect(areaScopeFor('/api/v1/workspaces/12/webhooksx')).toBeNull();
  });
});

/**
 * Access control over a real Fastify instance with real signing keys: an OAuth client token and a
 * user access token, each verified by its own service, on /v1 and elsewhere.
 */
describe('access control with scoped credentials', () => {
  let app: FastifyInstance;
  let tokens: TokenService;
  let clientTokens: ClientTokenService;
  const workspace = { id: 3, companyId: 2, archived: false, modules: ['TMT'] };

  beforeAll(async () => {
    const keys = await newSigningKeys();
    tokens = createTokenService({ keys, issuer: 'test', accessTtlMs: 60_000 });
    clientTokens = createClientTokenService({ keys, issuer: 'test', ttlMs: 60_000 });
    const oauth: ScopedCredential = {
      label: 'OAuth client token',
      recognizes: looksLikeClientToken,
      verify: async (bearer) => {
        const c = await clientTokens.verifyClientToken(bearer);
        const principal: Principal = {
          kind: 'user',
          credential: 'oauth-client',
          scopes: c.scopes as CredentialScope[],
          clientId: c.clientId,
          userId: c.userId,
          companyId: c.companyId,
          tokenWorkspaceId: c.workspaceId,
          jti: c.jti,
          exp: c.exp,
          iat: c.iat,
          issuedAtMs: c.iat * 1000,
        };
        return { principal, workspaceId: c.workspaceId };
      },
    };
    app = Fastify();
    installErrorHandling(app);
    installAccessControl(app, {
      tokens,
      isRevoked: async () => false,
      resolveWorkspace: async (user, id) => (user.companyId === 2 && id === 3 ? workspace : null),
      permissionsOf: async () => new Set<string>(),
      scopedCredentials: [oauth],
    });
    const who = async (request: import('fastify').FastifyRequest) => ({ credential: request.principal?.credential, scopes: request.principal?.scopes ?? null, workspace: request.workspace?.id });
    app.get('/v1/things', who);
    app.post('/v1/things', who);
    app.delete('/v1/things/:id', who);
    app.get('/api/v1/users/me', who);
    app.post('/df/api/session-invites/:token/accept', who);
    app.get('/df/api/sessions', who);
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  const clientToken = async (scopes: CredentialScope[]) =>
    (await clientTokens.issueClientToken({ clientId: 'qoc_test', clientRecordId: 'rec-1', userId: 7, companyId: 2, workspaceId: 3, scopes })).token;

  it('lets a client token through on /v1 within its scopes, with the principal saying what it is', async () => {
    const read = await clientToken(['read']);
    const ok = await app.inject({ method: 'GET', url: '/v1/things', headers: { authorization: `Bearer ${read}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ credential: 'oauth-client', scopes: ['read'], workspace: 3 });
    const post = await app.inject({ method: 'POST', url: '/v1/things', headers: { authorization: `Bearer ${read}` } });
    expect(post.statusCode).toBe(403);
    expect(codeOf(post.json())).toBe('INSUFFICIENT_SCOPE');
    const admin = await clientToken(['admin']);
    expect((await app.inject({ method: 'DELETE', url: '/v1/things/1', headers: { authorization: `Bearer ${admin}` } })).statusCode).toBe(200);
  });

  it('refuses a client token outside /v1 with 401, and another workspace named in the header with 403', async () => {
    const admin = await clientToken(['admin']);
    const elsewhere = await app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${admin}` } });
    expect(elsewhere.statusCode).toBe(401);
    expect(elsewhere.json().message).toContain('/v1');
    const other = await app.inject({ method: 'GET', url: '/v1/things', headers: { authorization: `Bearer ${admin}`, 'x-workspace-id': '4' } });
    expect(other.statusCode).toBe(403);
    expect(codeOf(other.json())).toBe('INVALID_WORKSPACE');
  });

  it('keeps the two token kinds apart: neither verifier accepts the other', async () => {
    const user = (await tokens.issueAccessToken({ userId: 7, companyId: 2, workspaceId: 3 })).token;
    const client = await clientToken(['admin']);
    expect(looksLikeClientToken(user)).toBe(false);
    expect(looksLikeClientToken(client)).toBe(true);
    await expect(tokens.verifyAccessToken(client)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await expect(clientTokens.verifyClientToken(user)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    const asUser = await app.inject({ method: 'GET', url: '/v1/things', headers: { authorization: `Bearer ${user}` } });
    expect(asUser.statusCode).toBe(200);
    expect(asUser.json()).toEqual({ credential: 'access-token', scopes: null, workspace: 3 });
    expect((await app.inject({ method: 'DELETE', url: '/v1/things/1', headers: { authorization: `Bearer ${user}` } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${user}` } })).statusCode).toBe(200);
  });

  it('lets a signed-in user accept a session invitation without any workspace, and ignores X-Workspace-Id there only', async () => {
    const none = (await tokens.issueAccessToken({ userId: 8, companyId: 2, workspaceId: null })).token;
    const url = '/df/api/session-invites/dfs_abcdefghijklmnopqrstuvwxyz/accept';
    const plain = await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${none}` } });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toEqual({ credential: 'access-token', scopes: null });
    // A workspace it cannot enter, or one without the module: not asked here.
    const named = await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${none}`, 'x-workspace-id': '4' } });
    expect(named.statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url })).statusCode).toBe(401);
    // Everywhere else under /df a workspace is still required.
    const other = await app.inject({ method: 'GET', url: '/df/api/sessions', headers: { authorization: `Bearer ${none}` } });
    expect(other.statusCode).toBe(400);
    expect(codeOf(other.json())).toBe('WORKSPACE_REQUIRED');
    expect(isWorkspaceFree('GET', '/df/api/session-invites/x/accept')).toBe(false);
  });
});

/**
 * The answer at once (`isRevokedNow`, `resolveWorkspaceNow`, a token verified before): the same
 * refusals as the long way, without asking the look-ups that take a turn.
 */
describe('access control answered at once', () => {
  let app: FastifyInstance;
  let tokens: TokenService;
  const revoked = new Set<string>();
  /** What the long way was asked: the async look-ups. */
  const asked: string[] = [];
  /** Whether the revocation cache can answer at once (else the long way decides). */
  let atHand = true;
  const workspaces: Record<number, { id: number; companyId: number; archived: boolean; modules: string[] } | null> = {
    3: { id: 3, companyId: 2, archived: false, modules: ['DF'] },
    4: { id: 4, companyId: 2, archived: true, modules: ['DF'] },
    5: { id: 5, companyId: 2, archived: false, modules: ['TMT'] },
    6: null,
  };
  const cached = new Map<number, { value: (typeof workspaces)[number] }>();

  beforeAll(async () => {
    const keys = await newSigningKeys();
    tokens = createTokenService({ keys, issuer: 'test', accessTtlMs: 60_000 });
    app = Fastify();
    installErrorHandling(app);
    installAccessControl(app, {
      tokens,
      isRevoked: async (t) => {
        asked.push(`revoked? ${t.jti}`);
        return revoked.has(t.jti);
      },
      isRevokedNow: (t) => (atHand ? revoked.has(t.jti) : undefined),
      resolveWorkspace: async (_user, id) => {
        asked.push(`workspace ${id}`);
        const value = workspaces[id] ?? null;
        cached.set(id, { value });
        return value;
      },
      resolveWorkspaceNow: (_user, id) => cached.get(id),
      permissionsOf: async () => new Set<string>(),
    });
    const who = async (request: import('fastify').FastifyRequest) => ({ user: request.principal?.userId, workspace: request.workspace?.id ?? null });
    app.get('/df/api/sessions', who);
    app.post('/df/api/sessions', who);
    app.get('/api/v1/users/me', who);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token: string, workspace?: number) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...(workspace ? { 'x-workspace-id': String(workspace) } : {}) } });

  it('asks the look-ups for a token the first time only, then answers from what it holds', async () => {
    const { token, jti } = await tokens.issueAccessToken({ userId: 7, companyId: 2, workspaceId: 3 });
    asked.length = 0;
    expect((await call('GET', '/df/api/sessions', token)).json()).toEqual({ user: 7, workspace: 3 });
    expect(asked).toEqual([`revoked? ${jti}`, 'workspace 3']);
    asked.length = 0;
    const again = await call('GET', '/df/api/sessions', token);
    expect(again.json()).toEqual({ user: 7, workspace: 3 });
    expect(asked).toEqual([]);
  });

  it('refuses a revoked token at once, and leaves it to the long way when the cache cannot say', async () => {
    const { token, jti } = await tokens.issueAccessToken({ userId: 7, companyId: 2, workspaceId: 3 });
    await call('GET', '/df/api/sessions', token);
    revoked.add(jti);
    asked.length = 0;
    const refused = await call('GET', '/df/api/sessions', token);
    expect([refused.statusCode, refused.json().code]).toEqual([401, 'TOKEN_REVOKED']);
    expect(asked).toEqual([]);
    atHand = false;
    try {
      const asking = await call('GET', '/df/api/sessions', token);
      expect(asking.json().code).toBe('TOKEN_REVOKED');
      expect(asked).toEqual([`revoked? ${jti}`]);
    } finally {
      atHand = true;
    }
  });

  it('refuses as the long way does: a workspace not the caller’s, an archived one for writes, a module not enabled, a bad header', async () => {
    const { token } = await tokens.issueAccessToken({ userId: 7, companyId: 2, workspaceId: 3 });
    for (const id of [4, 5, 6]) await call('GET', '/api/v1/users/me', token, id);
    asked.length = 0;
    const codes = async (method: 'GET' | 'POST', workspace: number | undefined, headers: Record<string, string> = {}) => {
      const r = await app.inject({ method, url: '/df/api/sessions', headers: { authorization: `Bearer ${token}`, ...(workspace ? { 'x-workspace-id': String(workspace) } : {}), ...headers } });
      return [r.statusCode, r.json().code ?? r.json().workspace];
    };
    expect(await codes('GET', 6)).toEqual([403, 'INVALID_WORKSPACE']);
    expect(await codes('POST', 4)).toEqual([409, 'WORKSPACE_ARCHIVED']);
    expect(await codes('GET', 4)).toEqual([200, 4]);
    expect(await codes('GET', 5)).toEqual([403, 'MODULE_NOT_ENABLED']);
    expect(await codes('GET', undefined, { 'x-workspace-id': 'abc' })).toEqual([403, 'INVALID_WORKSPACE']);
    expect(asked).toEqual([]);
  });
});
