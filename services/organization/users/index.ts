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
export { inviteUser, inviterOf, updateUser, deleteUser, type Inviter, type TokenRevocations } from './commands.js';
