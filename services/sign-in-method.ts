import type { FastifyRequest } from 'fastify';
import { findSignInSession } from '#projections/sign-in-sessions/index.js';
import { requirePrincipal } from '#shared/http/principal.js';
import type { Platform } from './platform.js';

/**
 * How the caller was signed in, for a credential they make now: `sso` only for an access token of a
 * session that began at an identity provider; a password session, another credential or an unknown
 * session count as `password` (held where single sign-on is required until an administrator approves).
 */
export async function signInMethodOf(platform: Platform, request: FastifyRequest): Promise<'password' | 'sso'> {
  const principal = requirePrincipal(request);
  if ((principal.credential ?? 'access-token') !== 'access-token' || principal.credentialId !== undefined || !principal.sid) return 'password';
  // Sessions begin without waiting for their read model: a key made just after signing in must find its session.
  await platform.readModels.waitFor(await platform.store.headPosition(), { names: ['sign-in-sessions'] });
  const session = await findSignInSession(platform.db, principal.userId, principal.sid);
  return session?.method === 'sso' ? 'sso' : 'password';
}
