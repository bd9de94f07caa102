import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { UsersOptions } from './http.js';
import { administrationRoutes } from './routes/administration.js';
import { imageRoutes } from './routes/images.js';
import { invitationRoutes } from './routes/invitations.js';
import { meRoutes } from './routes/me.js';
import { signInRoutes } from './routes/sign-ins.js';
import { userRoutes } from './routes/users.js';

export {
  userDecider,
  emailClaimDecider,
  type UserCommand,
  type UserState,
  type UserStatus,
  type LiveUser,
  type EmailClaimState,
  type EmailClaimCommand,
} from './decide.js';
export {
  userStream,
  userSignInStream,
  emailClaimStream,
  type UserEvent,
  type UserChanges,
  type ProfileImage,
  type EmailClaimEvent,
  type SignInEvent,
  type SignInFailureReason,
} from '#events/organization/users.js';
export { inviteUser, inviterOf, registerUser, updateUser, replaceRoles, setAdmin, deleteUser, setUserStatus, type Inviter, type NewPerson, type TokenRevocations, type UserOrigin } from './service.js';
export { claimFreeUsername, USERNAME_PATTERN } from './usernames.js';
export type { UsersOptions, UserTokenFlow } from './http.js';

/**
 * The company's users: the signed-in account, the list, invitations and their acceptance, profiles
 * and images, roles, status, administrators, passwords, sign-in sessions and sign-in logs. Its routes
 * end tokens and sessions and charge mail limits through the token flow of `organization-auth`.
 */
export const usersFeature = fp<UsersOptions>(
  routePlugins(meRoutes, userRoutes, invitationRoutes, imageRoutes, administrationRoutes, signInRoutes),
  { name: 'organization-users', fastify: '5.x', dependencies: ['organization-auth'] },
);
