import type { FastifyRequest } from 'fastify';
import { AppError } from '#shared/errors.js';
import { workspaceCaller } from '#shared/http/params.js';
import type { Principal } from '#shared/http/principal.js';

export { idParam, paging } from '#shared/http/params.js';

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
  return workspaceCaller(request, permission);
}

/** The engine calling, or 403 for a user: only engines report runs. */
export function engineCaller(request: FastifyRequest): EngineIdentity {
  const engine = engineOf(request);
  if (!engine) throw new AppError('FORBIDDEN', 'Only a test engine (X-Engine-Token) reports runs');
  return engine;
}
