import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#shared/errors.js';
import { requirePermission, requirePrincipal, requireWorkspace, type Principal } from '#shared/http/principal.js';

/** `page` (0-based) and `size` (default 20, at most 200), as every list of the platform. */
export const paging = {
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  size: z.coerce.number().int().min(1).max(200).default(20),
};

export const idParam = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'an id');

/** The engine behind a verified `X-Engine-Token`. */
export interface EngineIdentity {
  engineId: string;
  companyId: number;
  workspaceId: number;
}

// Principals made by the engine-token verifier, and only those, map to an engine: an object key
// cannot be forged from a request, unlike any claim or string a principal carries.
const engines = new WeakMap<Principal, EngineIdentity>();

export function markEngine(principal: Principal, engine: EngineIdentity): Principal {
  engines.set(principal, engine);
  return principal;
}

/** The engine calling, or null for a user. */
export function engineOf(request: FastifyRequest): EngineIdentity | null {
  return request.principal ? (engines.get(request.principal) ?? null) : null;
}

/** A user (never an engine) holding `permission` in the active workspace. */
export async function userCaller(request: FastifyRequest, permission: 'AUTORUNNER_READ' | 'AUTORUNNER_MANAGE') {
  if (engineOf(request)) throw new AppError('FORBIDDEN', 'A test engine cannot manage engines');
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  await requirePermission(request, permission);
  return { userId: principal.userId, companyId: workspace.companyId, workspaceId: workspace.id };
}

/** The engine calling, or 403 for a user: only engines report runs. */
export function engineCaller(request: FastifyRequest): EngineIdentity {
  const engine = engineOf(request);
  if (!engine) throw new AppError('FORBIDDEN', 'Only a test engine (X-Engine-Token) reports runs');
  return engine;
}
