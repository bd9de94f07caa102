import { erasedValue } from '#shared/pii/index.js';
import type { SignInEvent } from '#events/organization/users.js';
import type { Sql } from '#shared/db/index.js';
import type { RecordedEvent } from '#shared/es/index.js';
import { applyByType, type Projection } from '../types.js';

type Handled = Extract<SignInEvent, { type: 'SignInSucceeded' | 'SignInFailed' }>;

/** Every sign-in attempt of a known account, with the identity provider it went through, for the user-login-logs endpoint. */
export const signInLogProjection: Projection = {
  name: 'sign-in-log',
  version: 3,
  eventTypes: ['SignInSucceeded', 'SignInFailed'] satisfies Handled['type'][],
  schema: `
    CREATE TABLE IF NOT EXISTS org_sign_in_log (
      event_id uuid PRIMARY KEY,
      user_id integer NOT NULL,
      company_id integer,
      at timestamptz NOT NULL,
      success boolean NOT NULL,
      reason text,
      address text NOT NULL,
      user_agent text,
      position bigint,
      provider jsonb
    );
    -- Version 1 had no position; it orders attempts made within the same millisecond.
    ALTER TABLE org_sign_in_log ADD COLUMN IF NOT EXISTS position bigint;
    -- Version 2 did not name the identity provider a sign-in went through.
    ALTER TABLE org_sign_in_log ADD COLUMN IF NOT EXISTS provider jsonb;
    CREATE INDEX IF NOT EXISTS org_sign_in_log_user ON org_sign_in_log (user_id, at DESC);`,
  tables: ['org_sign_in_log'],
  // An erased person's attempts keep their times and outcomes; where from and with what goes.
  erasePerson: async (tx, userId) => {
    await tx.query(`UPDATE org_sign_in_log SET address = $2, user_agent = $2 WHERE user_id = $1`, [userId, erasedValue('address', '')]);
  },
  apply: applyByType<Handled>({
    SignInSucceeded: (tx, { payload: p }, at, recorded) => attempt(tx, recorded, at, p, { success: true, reason: null }),
    SignInFailed: (tx, { payload: p }, at, recorded) => attempt(tx, recorded, at, p, { success: false, reason: p.reason }),
  }),
};

/** One attempt, and why it failed if it did. */
async function attempt(tx: Sql, recorded: RecordedEvent, at: string, p: Handled['payload'], { success, reason }: { success: boolean; reason: string | null }): Promise<void> {
  await tx.query(
    `INSERT INTO org_sign_in_log (event_id, user_id, company_id, at, success, reason, address, user_agent, position, provider)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (event_id) DO NOTHING`,
    [recorded.id, p.userId, recorded.metadata.companyId ?? null, at, success, reason, p.address, p.userAgent, recorded.position.toString(), p.provider ? JSON.stringify(p.provider) : null],
  );
}
