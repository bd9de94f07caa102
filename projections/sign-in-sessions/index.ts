export { signInSessionsProjection } from './projection.js';
export { findSignInSession, listActiveSignInSessions, recordSignInSessionUse, type SignInSessionView } from './queries.js';
