import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import { authRoutes } from './routes.js';
import type { AuthService } from './service.js';

export { AuthService, type ClientInfo, type TokenPair } from './service.js';
export { AccessRevocations, type RevocableToken } from './revocation.js';
export { SignInAttempts, type SignInAttempt, type SignInClient } from './sign-in-attempts.js';
export { sendLimitsOf, type SendLimits } from './send-limits.js';

export interface AuthOptions {
  platform: Platform;
  /** The token flow, built once by the module (the gateway's revocation checks read it too). */
  auth: AuthService;
  /** Password sign-in through a directory (LDAP) named by `providerId` (the identity-providers feature). */
  directorySignIn?: Parameters<typeof authRoutes>[1]['directorySignIn'];
}

/**
 * The token flow: sign-in, refresh, logout, sign-up, password reset, workspace switch, the JWKS, and
 * the caller's sign-in sessions.
 */
export const authFeature = fp<AuthOptions>(routePlugins(authRoutes), { name: 'organization-auth', fastify: '5.x' });
