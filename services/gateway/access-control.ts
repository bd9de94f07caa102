import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenService } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import { tokenPrincipal, type ActiveWorkspace, type PermissionResolver, type Principal } from '#shared/http/principal.js';
import { acceptsApiKey, acceptsScopedCredential, areaScopeFor, isProbe, isPublic, isWorkspaceFree, moduleFor, pathOf, scopeAllows, scopeFor, type ModuleRoute } from './policy.js';

export interface AccessControlDeps {
  tokens: TokenService;
  /**
   * Whether a verified access token was revoked: its `jti` (logout), its sign-in session `sid` (logout
   * of any token of the session, refresh-token reuse, a session ended from the list) or every token of
   * its user (password change, deactivation, sign out everywhere). One read of the key-value store.
   */
  isRevoked(token: { jti: string; userId: number; issuedAtMs: number; sid?: string | undefined }): Promise<boolean>;
  /**
   * Told of each request authenticated by an access token of a sign-in session, after the checks; must
   * not block (it notes the session's last use in the background, now and then).
   */
  sessionUsed?: (use: { sid: string; address: string }) => void;
  resolveWorkspace(user: { userId: number; companyId: number }, workspaceId: number): Promise<ActiveWorkspace | null>;
  /**
   * `isRevoked` and `resolveWorkspace` answered at once where this process holds the answer (an
   * in-process revocation cache, a cached workspace answer); `undefined` sends the request the long way.
   * With them, a request bearing an access token already verified here passes without a turn of the loop.
   */
  isRevokedNow?(token: { jti: string; userId: number; issuedAtMs: number; sid?: string | undefined }): boolean | undefined;
  resolveWorkspaceNow?(user: { userId: number; companyId: number }, workspaceId: number): { value: ActiveWorkspace | null } | undefined;
  /** The caller's permission keys, asked only by routes that check one. */
  permissionsOf: PermissionResolver;
  /**
   * Verifies a device-testing API key (`X-Api-Key`). Modules that issue keys provide it; without one,
   * a key is refused where the interface would route by it.
   */
  verifyApiKey?: (key: string) => Promise<{ principal: Principal; workspace: ActiveWorkspace } | null>;
  /**
   * On a module's own server (split deployment) paths arrive without the gateway's prefix: this is
   * the module's gateway route, used to read every path as the gateway saw it.
   */
  ownModule?: ModuleRoute;
  /** Paths whose module authenticates a credential-less request itself (gateway paths). */
  authenticatesItself?: readonly RegExp[];
  /** Module credentials sent in their own header (`X-API-KEY`, `X-Engine-Token`). */
  credentials?: readonly HeaderCredential[];
  /**
   * Bearer credentials of the `/v1` set (docs/api-conventions.md): `/v1` API keys and OAuth client tokens. They
   * are accepted only on `SCOPED_CREDENTIAL_PATHS`, limited by their scopes there.
   */
  scopedCredentials?: readonly ScopedCredential[];
}

/**
 * A bearer credential other than a platform access token, recognised by its form (`qak_...`, a JWT of
 * its own `typ`): accepted only on the `/v1` set (401 elsewhere, saying so), where each method needs
 * a scope (`scopeFor`). It acts as the user who created it, in the workspace it belongs to, and only
 * while that user can still enter that workspace; the user's own permissions still apply.
 */
export interface ScopedCredential {
  /** What it is called in error messages ("/v1 API key"). */
  label: string;
  /** Whether a bearer value has this credential's form; no look-up. */
  recognizes(bearer: string): boolean;
  /**
   * The principal (with `credential` and `scopes`) and the workspace it belongs to; null for an
   * unknown or revoked value. May throw an `AppError` (expired token) instead.
   */
  verify(bearer: string): Promise<{ principal: Principal; workspaceId: number; used?: () => Promise<void> } | null>;
}

/**
 * A non-user credential a module issues and verifies: on `paths` (as the gateway sees them), a request
 * carrying `header` is authenticated by `verify` instead of a bearer token; an unknown or revoked value
 * is a 401. The principal acts for whoever created the credential, in the workspace it belongs to.
 */
export interface HeaderCredential {
  /** Lower-case header name. */
  header: string;
  paths: readonly RegExp[];
  /** What the credential is called in error messages ("health-check API key"). */
  label: string;
  verify(value: string): Promise<{ principal: Principal; workspace: ActiveWorkspace } | null>;
}

const WORKSPACE_ID = /^[1-9]\d{0,9}$/;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (m) return m[1]!;
    throw new AppError('UNAUTHORIZED', 'Authorization header must be "Bearer <token>"');
  }
  const alt = request.headers['x-auth-token'];
  return typeof alt === 'string' && alt.length > 0 ? alt : null;
}

/**
 * Who is calling and in which workspace, for every request: public paths pass; otherwise a bearer
 * token verified locally and checked against revocations (or an API key where the interface allows
 * one, or a `/v1` API key or OAuth client token on the `/v1` set, limited by its scopes); then
 * `X-Workspace-Id` (or the token's workspace) checked against the caller's access; then the module
 * entitlement of that workspace. All of it before the module sees the request.
 */
export function installAccessControl(app: FastifyInstance, deps: AccessControlDeps): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('workspace', null);
  const none: ReadonlySet<string> = new Set();
  app.decorateRequest('permissions', function (this: FastifyRequest) {
    const request = this;
    const principal = request.principal;
    if (!principal) return Promise.resolve(none);
    // Memoised per request: several checks in one handler cost one look-up.
    const loaded = deps.permissionsOf(principal, request.workspace);
    request.permissions = () => loaded;
    return loaded;
  });

  /** Where a request stands before any look-up: passing without credentials, or what it must be checked by. */
  const classify = (request: FastifyRequest): Check | null => {
    const local = pathOf(request.url);
    const method = request.method;
    if (isProbe(method, local)) return null;
    const own = deps.ownModule;
    const path = own && own.strip ? `${own.prefix}${local === '/' ? '' : local}` : local;
    if (isPublic(method, path)) return null;
    const route = own ?? moduleFor(path);
    for (const credential of deps.credentials ?? []) {
      const value = request.headers[credential.header];
      if (typeof value !== 'string' || value.length === 0 || !credential.paths.some((p) => p.test(path))) continue;
      return { kind: 'header', credential, value, route, method, path };
    }
    const bearer = bearerOf(request);
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey.length > 0 && acceptsApiKey(path, bearer !== null)) return { kind: 'api-key', apiKey, route, method, path };
    const scoped = bearer === null ? undefined : deps.scopedCredentials?.find((c) => c.recognizes(bearer));
    if (scoped) return { kind: 'scoped', scoped, bearer: bearer!, route, method, path };
    if (bearer === null) {
      // A module that authenticates inside the connection (the viewer WebSocket's first message) gets
      // the request without credentials, and then verifies the token with `authenticateToken`.
      if (deps.authenticatesItself?.some((p) => p.test(path))) return null;
      throw new AppError('UNAUTHORIZED', 'Authentication required: send "Authorization: Bearer <token>"');
    }
    const header = request.headers['x-workspace-id'];
    return { kind: 'token', bearer, workspaceFree: isWorkspaceFree(method, path), workspaceHeader: header === undefined ? undefined : ((Array.isArray(header) ? header[0] : header) ?? ''), route, method, path };
  };

  const admitToken = (request: FastifyRequest, check: TokenCheck, found: TokenAuthentication): void => {
    request.principal = found.principal;
    // A workspace-free request names what it acts on; the caller's workspace plays no part there.
    if (!check.workspaceFree) {
      request.workspace = found.workspace;
      checkEntitlement(check.route, found.workspace, found.tokenWorkspaceLost, check.method);
    }
    const sid = found.principal.sid;
    if (sid && deps.sessionUsed) deps.sessionUsed({ sid, address: request.ip });
  };

  /** The checks that look things up: a module credential, an API key, a `/v1` credential, a token not at hand. */
  const admit = async (request: FastifyRequest, check: Check): Promise<void> => {
    switch (check.kind) {
      case 'header': {
        const found = check.value.length <= 512 ? await check.credential.verify(check.value) : null;
        if (!found) throw new AppError('UNAUTHORIZED', `Invalid ${check.credential.label}`);
        request.principal = found.principal;
        request.workspace = found.workspace;
        checkEntitlement(check.route, found.workspace, false, check.method);
        return;
      }
      case 'api-key': {
        const found = deps.verifyApiKey ? await deps.verifyApiKey(check.apiKey) : null;
        if (!found) throw new AppError('UNAUTHORIZED', 'Invalid API key: X-Api-Key takes an active device API key (dfk_...); a pipeline key (qak_...) goes in Authorization: Bearer');
        request.principal = found.principal;
        request.workspace = found.workspace;
        checkEntitlement(check.route, found.workspace, false, check.method);
        return;
      }
      case 'scoped':
        return authenticateScoped(request, deps, check.scoped, check.bearer, check.path, check.route, check.method);
      case 'token': {
        const found = check.workspaceFree
          ? await authenticateToken({ ...deps, resolveWorkspace: async () => null }, check.bearer, undefined)
          : await authenticateToken(deps, check.bearer, check.workspaceHeader);
        admitToken(request, check, found);
      }
    }
  };

  // Synchronous when it can be: a request whose token, revocation state and workspace answer are all at
  // hand here passes without a promise; anything else is looked up.
  app.addHook('onRequest', (request, _reply, done) => {
    let check: Check | null;
    try {
      check = classify(request);
      if (check === null) return done();
      if (check.kind === 'token') {
        const found = authenticateTokenNow(deps, check.bearer, check.workspaceHeader, check.workspaceFree);
        if (found) {
          admitToken(request, check, found);
          return done();
        }
      }
    } catch (err) {
      return done(err as Error);
    }
    admit(request, check).then(() => done(), done);
  });
}

type Checked = { route: ModuleRoute | null; method: string; path: string };
type TokenCheck = Checked & { kind: 'token'; bearer: string; workspaceFree: boolean; workspaceHeader: string | undefined };
type Check =
  | (Checked & { kind: 'header'; credential: HeaderCredential; value: string })
  | (Checked & { kind: 'api-key'; apiKey: string })
  | (Checked & { kind: 'scoped'; scoped: ScopedCredential; bearer: string })
  | TokenCheck;

/**
 * Verifies a bearer token locally and against revocations, and resolves the workspace named by
 * `workspaceHeader` (or baked into the token) against the caller's access.
 */
export async function authenticateToken(
  deps: Pick<AccessControlDeps, 'tokens' | 'isRevoked' | 'resolveWorkspace'>,
  bearer: string,
  workspaceHeader: string | undefined,
): Promise<{ principal: Principal; workspace: ActiveWorkspace | null; tokenWorkspaceLost: boolean }> {
  const claims = await deps.tokens.verifyAccessToken(bearer);
  if (await deps.isRevoked({ jti: claims.jti, userId: claims.userId, issuedAtMs: claims.issuedAtMs, sid: claims.sid })) {
    throw new AppError('TOKEN_REVOKED', 'Access token has been revoked');
  }
  const principal = tokenPrincipal(claims, { credential: 'access-token', issuedAtMs: claims.issuedAtMs, ...(claims.sid ? { sid: claims.sid } : {}) });
  let workspace: ActiveWorkspace | null = null;
  let tokenWorkspaceLost = false;
  if (workspaceHeader !== undefined) {
    const value = workspaceHeader;
    const ws = value && WORKSPACE_ID.test(value.trim()) ? await deps.resolveWorkspace(principal, Number(value.trim())) : null;
    if (!ws) throw new AppError('INVALID_WORKSPACE', 'Invalid X-Workspace-Id header');
    workspace = ws;
  } else if (principal.tokenWorkspaceId !== null) {
    workspace = await deps.resolveWorkspace(principal, principal.tokenWorkspaceId);
    tokenWorkspaceLost = workspace === null;
  }
  return { principal, workspace, tokenWorkspaceLost };
}

type TokenAuthentication = { principal: Principal; workspace: ActiveWorkspace | null; tokenWorkspaceLost: boolean };

/**
 * `authenticateToken` decided at once, when every answer it needs is at hand (a token verified here
 * before, the revocation cache in this process, the workspace answer cached); undefined otherwise, and
 * then `authenticateToken` decides. It refuses exactly what `authenticateToken` refuses, with the same errors.
 */
function authenticateTokenNow(deps: Pick<AccessControlDeps, 'tokens' | 'isRevokedNow' | 'resolveWorkspaceNow'>, bearer: string, workspaceHeader: string | undefined, workspaceFree: boolean): TokenAuthentication | undefined {
  if (!deps.tokens.verifiedNow || !deps.isRevokedNow) return undefined;
  const claims = deps.tokens.verifiedNow(bearer);
  if (!claims) return undefined;
  const revoked = deps.isRevokedNow({ jti: claims.jti, userId: claims.userId, issuedAtMs: claims.issuedAtMs, sid: claims.sid });
  if (revoked === undefined) return undefined;
  if (revoked) throw new AppError('TOKEN_REVOKED', 'Access token has been revoked');
  const principal = tokenPrincipal(claims, { credential: 'access-token', issuedAtMs: claims.issuedAtMs, ...(claims.sid ? { sid: claims.sid } : {}) });
  if (workspaceFree) return { principal, workspace: null, tokenWorkspaceLost: false };
  if (workspaceHeader !== undefined) {
    const value = workspaceHeader.trim();
    if (!value || !WORKSPACE_ID.test(value)) throw new AppError('INVALID_WORKSPACE', 'Invalid X-Workspace-Id header');
    const ws = deps.resolveWorkspaceNow?.(principal, Number(value));
    if (!ws) return undefined;
    if (!ws.value) throw new AppError('INVALID_WORKSPACE', 'Invalid X-Workspace-Id header');
    return { principal, workspace: ws.value, tokenWorkspaceLost: false };
  }
  if (principal.tokenWorkspaceId === null) return { principal, workspace: null, tokenWorkspaceLost: false };
  const ws = deps.resolveWorkspaceNow?.(principal, principal.tokenWorkspaceId);
  if (!ws) return undefined;
  return { principal, workspace: ws.value, tokenWorkspaceLost: ws.value === null };
}

/**
 * A `/v1` API key or OAuth client token: only on the `/v1` set; its own workspace (an `X-Workspace-Id`
 * naming another one is 403); its user must still be able to enter that workspace; then the module
 * entitlement, then the scope the method needs.
 */
async function authenticateScoped(
  request: FastifyRequest,
  deps: AccessControlDeps,
  credential: ScopedCredential,
  bearer: string,
  path: string,
  route: ModuleRoute | null,
  method: string,
): Promise<void> {
  if (!acceptsScopedCredential(path)) {
    throw new AppError(
      'UNAUTHORIZED',
      `A ${credential.label} is accepted on the /v1 API, and with the scope "devices" or "webhooks" on the device API and the workspace's webhooks; use a platform access token (POST /api/v1/auth/login) here`,
    );
  }
  const found = bearer.length <= 8192 ? await credential.verify(bearer) : null;
  if (!found) throw new AppError('UNAUTHORIZED', `Invalid or revoked ${credential.label}`);
  const header = request.headers['x-workspace-id'];
  const named = Array.isArray(header) ? header[0] : header;
  if (named !== undefined && named.trim() !== String(found.workspaceId)) {
    throw new AppError('INVALID_WORKSPACE', `Invalid X-Workspace-Id header: this ${credential.label} acts in workspace ${found.workspaceId}`);
  }
  const area = areaScopeFor(path);
  if (area && area.workspaceId !== null && area.workspaceId !== found.workspaceId) {
    throw new AppError('INVALID_WORKSPACE', `This ${credential.label} acts in workspace ${found.workspaceId} only`);
  }
  const workspace = await deps.resolveWorkspace(found.principal, found.workspaceId);
  if (!workspace) {
    throw new AppError('UNAUTHORIZED', `The user of this ${credential.label} can no longer enter its workspace`);
  }
  request.principal = found.principal;
  request.workspace = workspace;
  checkEntitlement(route, workspace, false, method);
  const scopes = found.principal.scopes ?? [];
  if (area && !scopes.includes(area.scope)) {
    throw new AppError('INSUFFICIENT_SCOPE', `This ${credential.label} lacks the "${area.scope}" scope that ${area.what} needs (it has: ${scopes.join(', ') || 'none'})`);
  }
  if (!area && !scopeAllows(scopes, method)) {
    throw new AppError('INSUFFICIENT_SCOPE', `This ${credential.label} lacks the "${scopeFor(method)}" scope that ${method} needs (it has: ${scopes.join(', ') || 'none'})`);
  }
  if (found.used) {
    found.used().catch((err: unknown) => request.log.warn({ err }, 'recording credential use failed'));
  }
}

/** Throws unless `workspace` may use the module `route` belongs to (entitlement, archive). */
export function checkModuleAccess(route: ModuleRoute | null, found: { workspace: ActiveWorkspace | null; tokenWorkspaceLost: boolean }, method: string): void {
  checkEntitlement(route, found.workspace, found.tokenWorkspaceLost, method);
}

function checkEntitlement(route: ModuleRoute | null, workspace: ActiveWorkspace | null, tokenWorkspaceLost: boolean, method: string): void {
  if (!route || route.entitlement === null) return;
  if (!workspace) {
    if (tokenWorkspaceLost) {
      throw new AppError('INVALID_WORKSPACE', 'The workspace of this token is no longer accessible; switch workspace');
    }
    throw new AppError('WORKSPACE_REQUIRED', 'Select a workspace with the X-Workspace-Id header or switch-workspace');
  }
  if (!workspace.modules.includes(route.entitlement)) {
    throw new AppError('MODULE_NOT_ENABLED', `Module ${route.entitlement} is not enabled for workspace ${workspace.id}`);
  }
  if (workspace.archived && !READ_METHODS.has(method)) {
    throw new AppError('WORKSPACE_ARCHIVED', `Workspace ${workspace.id} is archived and read-only`);
  }
}
