import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { PermissionKey } from '../permissions.js';

/** The signed-in user behind a request, from a verified access token. */
export interface Principal {
  kind: 'user';
  userId: number;
  companyId: number;
  /** Workspace baked into the token by switch-workspace or sign-in. */
  tokenWorkspaceId: number | null;
  jti: string;
  exp: number;
  iat: number;
  issuedAtMs: number;
  sid?: string;
  /**
   * Which credential the request came with: a platform access token (absent on principals built
   * before this field existed: read absent as an access token), a `/v1` API key, or an OAuth client's
   * token. The last two are accepted only on the `/v1` set.
   */
  credential?: CredentialKind;
  /** What a `/v1` API key or OAuth client token may do; absent for access tokens (no scope limit). */
  scopes?: readonly CredentialScope[];
  /** The OAuth client behind an OAuth client token (its public `client_id`). */
  clientId?: string;
  /** Id of the API key (a `/v1` one, or a module's `X-Api-Key`) or OAuth client behind the request (its record id). */
  credentialId?: string;
  /**
   * The request budget per rate-limit window an administrator gave the API key or OAuth client behind
   * the request; absent: the deployment's default for credentials. Read with the credential itself.
   */
  rateLimit?: number;
}

/** What a signed token's verified claims say of its user: who, in which company and workspace, which token. */
export interface SignedTokenClaims {
  userId: number;
  companyId: number;
  workspaceId: number | null;
  jti: string;
  exp: number;
  iat: number;
}

/**
 * The principal of a verified signed token (an access token, an OAuth client's token): the user it
 * acts as, in the workspace baked into it; `credential` says which kind it is and what else it carries.
 */
export function tokenPrincipal(claims: SignedTokenClaims, credential: Omit<Principal, 'kind' | 'userId' | 'companyId' | 'tokenWorkspaceId' | 'jti' | 'exp' | 'iat'>): Principal {
  return { kind: 'user', userId: claims.userId, companyId: claims.companyId, tokenWorkspaceId: claims.workspaceId, jti: claims.jti, exp: claims.exp, iat: claims.iat, ...credential };
}

/** The credentials a user-acting principal may come from. */
export type CredentialKind = 'access-token' | 'api-key' | 'oauth-client';

/** Scopes of `/v1` API keys and OAuth clients (docs/api-conventions.md, "The /v1 set"). */
export const CREDENTIAL_SCOPES = ['read', 'write', 'delete', 'admin', 'devices', 'webhooks'] as const;
export type CredentialScope = (typeof CREDENTIAL_SCOPES)[number];

/** The workspace a request acts in, checked against the caller's access. */
export interface ActiveWorkspace {
  id: number;
  companyId: number;
  archived: boolean;
  modules: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    workspace: ActiveWorkspace | null;
    /** The caller's permission keys in the active workspace, loaded once per request on first use. */
    permissions(): Promise<ReadonlySet<string>>;
  }
}

/** Where a service learns the permission keys of a caller in a workspace (the organization's roles). */
export type PermissionResolver = (principal: Principal, workspace: ActiveWorkspace | null) => Promise<ReadonlySet<string>>;

/** Throws 403 FORBIDDEN unless the caller holds `key` in the active workspace. */
export async function requirePermission(request: FastifyRequest, key: PermissionKey): Promise<void> {
  requirePrincipal(request);
  const keys = await request.permissions();
  if (!keys.has(key)) throw new AppError('FORBIDDEN', `Missing permission ${key}`);
}

/** The caller, or 401 when the route was reached without one. */
export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return request.principal;
}

/** The caller's active workspace, or 400 when none is selected. */
export function requireWorkspace(request: FastifyRequest): ActiveWorkspace {
  if (!request.workspace) {
    throw new AppError('WORKSPACE_REQUIRED', 'Select a workspace with the X-Workspace-Id header or switch-workspace');
  }
  return request.workspace;
}
