export { signInSessionsProjection } from './projection.js';
export { activePasswordSessions, findSignInSession, listActiveSignInSessions, recordSignInSessionUse, signInSessionEnded, signInSessionsEndedSince, type SignInSessionView } from './queries.js';
