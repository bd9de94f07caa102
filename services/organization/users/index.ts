export { userDecider, emailClaimDecider, type UserCommand, type UserState, type EmailClaimState } from './decide.js';
export {
  userStream,
  userSignInStream,
  type UserEvent,
  type EmailClaimEvent,
  type SignInEvent,
  type SignInFailureReason,
} from './events.js';
