import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenService } from '#shared/auth/index.js';
import { AppError } from '#shared/errors.js';
import type { ActiveWorkspace, PermissionResolver, Principal } from '#shared/http/principal.js';
import { acceptsApiKey, isPublic, moduleFor, pathOf, type ModuleRoute } from './policy.js';

export interface AccessControlDeps {
  tokens: TokenService;
  isRevoked(token: { jti: string; userId: number; issuedAtMs: number }): Promise<boolean>;
  resolveWorkspace(user: { userId: number; companyId: number }, workspaceId: number): Promise<ActiveWorkspace | null>;
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
 * one); then `X-Workspace-Id` (or the token's workspace) checked against the caller's access; then
 * the module entitlement of that workspace. All of it before the module sees the request.
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

  app.addHook('onRequest', async (request) => {
    const local = pathOf(request.url);
    const own = deps.ownModule;
    const path = own && own.strip ? `${own.prefix}${local === '/' ? '' : local}` : local;
    const method = request.method;
    if (isPublic(method, path)) return;
    const route = own ?? moduleFor(path);

    const bearer = bearerOf(request);
    const apiKey = request.headers['x-api-key'];
    if (typeof apiKey === 'string' && apiKey.length > 0 && acceptsApiKey(path, bearer !== null)) {
      const found = deps.verifyApiKey ? await deps.verifyApiKey(apiKey) : null;
      if (!found) throw new AppError('UNAUTHORIZED', 'Invalid API key');
      request.principal = found.principal;
      request.workspace = found.workspace;
      checkEntitlement(route, found.workspace, false, method);
      return;
    }
    if (bearer === null) throw new AppError('UNAUTHORIZED', 'Authentication required: send "Authorization: Bearer <token>"');

    const claims = await deps.tokens.verifyAccessToken(bearer);
    if (await deps.isRevoked({ jti: claims.jti, userId: claims.userId, issuedAtMs: claims.issuedAtMs })) {
      throw new AppError('TOKEN_REVOKED', 'Access token has been revoked');
    }
    const principal: Principal = {
      kind: 'user',
      userId: claims.userId,
      companyId: claims.companyId,
      tokenWorkspaceId: claims.workspaceId,
      jti: claims.jti,
      exp: claims.exp,
      iat: claims.iat,
      issuedAtMs: claims.issuedAtMs,
      ...(claims.sid ? { sid: claims.sid } : {}),
    };
    request.principal = principal;

    const header = request.headers['x-workspace-id'];
    let tokenWorkspaceLost = false;
    if (header !== undefined) {
      const value = Array.isArray(header) ? header[0] : header;
      const ws = value && WORKSPACE_ID.test(value.trim()) ? await deps.resolveWorkspace(principal, Number(value.trim())) : null;
      if (!ws) throw new AppError('INVALID_WORKSPACE', 'Invalid X-Workspace-Id header');
      request.workspace = ws;
    } else if (principal.tokenWorkspaceId !== null) {
      request.workspace = await deps.resolveWorkspace(principal, principal.tokenWorkspaceId);
      tokenWorkspaceLost = request.workspace === null;
    }
    checkEntitlement(route, request.workspace, tokenWorkspaceLost, method);
  });
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
