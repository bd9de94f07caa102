import { erasedValue } from '#shared/pii/index.js';
import type { SignInEvent, UserEvent } from '#events/organization/users.js';
import { applyByType, type Projection } from '../types.js';

type Handled =
  | Extract<SignInEvent, { type: 'SignInSessionStarted' | 'SignInSessionEnded' | 'SignInSessionsEnded' }>
  | Extract<UserEvent, { type: 'UserPasswordChanged' | 'UserDeactivated' | 'UserDeleted' }>;

/** Every session of a user not ended yet ends, in log order: what a password change, deactivation, deletion or "sign out everywhere" does. */
const END_ALL = `UPDATE org_sign_in_sessions SET ended_at = $2, end_reason = $3 WHERE user_id = $1 AND ended_at IS NULL`;

/**
 * Sign-in sessions (refresh-token families) of each user, for `GET /api/v1/auth/sessions`: when and
 * from where each began, until when it can live, and whether and why it ended. The revocation itself
 * is cached in the key-value store (services/organization/auth/revocation.ts); this is what a person
 * reads, and the durable record that cache is checked against and reloaded from when it is lost.
 *
 * `org_sign_in_session_usage` (last use of each session, at most once a minute per replica) is written
 * by access control, not by events; it is created here but is not one of this projection's `tables`,
 * so a rebuild keeps it.
 */
export const signInSessionsProjection: Projection = {
  name: 'sign-in-sessions',
  // 2: sessions record how they began (`method`), for ending password sessions where SSO is required.
  version: 2,
  eventTypes: [
    'SignInSessionStarted',
    'SignInSessionEnded',
    'SignInSessionsEnded',
    'UserPasswordChanged',
    'UserDeactivated',
    'UserDeleted',
  ] satisfies Handled['type'][],
  schema: `
    CREATE TABLE IF NOT EXISTS org_sign_in_sessions (
      session_id text PRIMARY KEY,
      user_id integer NOT NULL,
      company_id integer,
      started_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      address text,
      user_agent text,
      ended_at timestamptz,
      end_reason text,
      position bigint NOT NULL
    );
    ALTER TABLE org_sign_in_sessions ADD COLUMN IF NOT EXISTS method text NOT NULL DEFAULT 'password';
    CREATE INDEX IF NOT EXISTS org_sign_in_sessions_user ON org_sign_in_sessions (user_id, started_at DESC);
    CREATE INDEX IF NOT EXISTS org_sign_in_sessions_ended ON org_sign_in_sessions (ended_at) WHERE ended_at IS NOT NULL;
    CREATE TABLE IF NOT EXISTS org_sign_in_session_usage (
      session_id text PRIMARY KEY,
      last_used_at timestamptz NOT NULL,
      last_address text
    );`,
  tables: ['org_sign_in_sessions'],
  // An erased person's sessions keep their times; where from and with what goes, and the addresses their
  // requests were last seen from (kept beside the sessions by the auth service) go with them.
  erasePerson: async (tx, userId) => {
    await tx.query(`UPDATE org_sign_in_sessions SET address = $2, user_agent = $2 WHERE user_id = $1`, [userId, erasedValue('address', '')]);
    await tx.query(`DELETE FROM org_sign_in_session_usage WHERE session_id IN (SELECT session_id FROM org_sign_in_sessions WHERE user_id = $1)`, [userId]);
  },
  apply: applyByType<Handled>({
    SignInSessionStarted: async (tx, event, at, recorded) => {
      const p = event.payload;
      await tx.query(
        `INSERT INTO org_sign_in_sessions (session_id, user_id, company_id, started_at, expires_at, address, user_agent, position, method)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (session_id) DO NOTHING`,
        [p.signInSessionId, p.userId, recorded.metadata.companyId ?? null, at, p.expiresAt, p.address, p.userAgent, recorded.position.toString(), p.method ?? 'password'],
      );
    },
    SignInSessionEnded: async (tx, event, at) => {
      await tx.query(`UPDATE org_sign_in_sessions SET ended_at = $2, end_reason = $3 WHERE session_id = $1 AND ended_at IS NULL`, [
        event.payload.signInSessionId,
        at,
        event.payload.reason,
      ]);
    },
    SignInSessionsEnded: (tx, event, at) => tx.query(END_ALL, [event.payload.userId, at, event.payload.reason]),
    UserPasswordChanged: (tx, event, at) => tx.query(END_ALL, [event.payload.userId, at, 'password_changed']),
    UserDeactivated: (tx, event, at) => tx.query(END_ALL, [event.payload.userId, at, 'deactivated']),
    UserDeleted: (tx, event, at) => tx.query(END_ALL, [event.payload.userId, at, 'deleted']),
  }),
};
