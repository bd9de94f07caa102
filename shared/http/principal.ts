import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

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
}

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
  }
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
