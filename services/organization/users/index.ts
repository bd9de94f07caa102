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
} from './events.js';
export { inviteUser, updateUser, deleteUser } from './routes.js';
