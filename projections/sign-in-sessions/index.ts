export { signInSessionsProjection } from './projection.js';
export { findSignInSession, listActiveSignInSessions, recordSignInSessionUse, signInSessionEnded, signInSessionsEndedSince, type SignInSessionView } from './queries.js';
