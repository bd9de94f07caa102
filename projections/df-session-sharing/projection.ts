import { erasedValue } from '#shared/pii/index.js';
import { SHARING_EVENT_TYPES, sharingEvents, type SharingEvent } from '#events/df/sharing.js';
import { applyByType, type Projection } from '../types.js';

/**
 * Invitations to device sessions (by the hash of their token), the access each accepted invitation
 * gives, and the viewers whose access the owner withdrew.
 */
export const dfSessionSharingProjection: Projection = {
  name: 'df-session-sharing',
  version: 1,
  eventTypes: SHARING_EVENT_TYPES,
  // Invitations of an erased coworker keep who may do what; their address goes.
  erasePerson: async (tx, userId) => {
    await tx.query(`UPDATE df_session_invitations SET email = $2 WHERE user_id = $1 AND email IS NOT NULL`, [userId, erasedValue('email', `user:${userId}`)]);
  },
  schema: `
    CREATE TABLE IF NOT EXISTS df_session_invitations (
      invitation_id text PRIMARY KEY,
      session_id text NOT NULL,
      company_id integer NOT NULL,
      workspace_id integer NOT NULL,
      type text NOT NULL,
      access text NOT NULL,
      user_id integer,
      email text,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      max_uses integer,
      uses integer NOT NULL DEFAULT 0,
      created_by integer NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX IF NOT EXISTS df_session_invitations_session ON df_session_invitations (session_id, type, created_at);
    CREATE TABLE IF NOT EXISTS df_session_grants (
      session_id text NOT NULL,
      user_id integer NOT NULL,
      invitation_id text NOT NULL,
      access text NOT NULL,
      granted_at timestamptz NOT NULL,
      PRIMARY KEY (session_id, user_id, invitation_id)
    );
    CREATE INDEX IF NOT EXISTS df_session_grants_invitation ON df_session_grants (invitation_id);
    CREATE TABLE IF NOT EXISTS df_session_withdrawals (
      session_id text NOT NULL,
      user_id integer NOT NULL,
      withdrawn_at timestamptz NOT NULL,
      withdrawn_by integer,
      PRIMARY KEY (session_id, user_id)
    );`,
  tables: ['df_session_invitations', 'df_session_grants', 'df_session_withdrawals'],
  apply: applyByType<SharingEvent>(
    {
      DeviceSessionInvitationCreated: async (tx, { payload: p }, at) => {
        await tx.query(
          `INSERT INTO df_session_invitations (invitation_id, session_id, company_id, workspace_id, type, access, user_id, email, token_hash, expires_at, max_uses, created_by, created_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) ON CONFLICT (invitation_id) DO NOTHING`,
          [p.invitationId, p.sessionId, p.companyId, p.workspaceId, p.type, p.access, p.userId, p.email, p.tokenHash, p.expiresAt, p.maxUses, p.createdBy, at],
        );
        // A user invitation naming a disconnected viewer gives them a way back in.
        if (p.userId !== null) await tx.query(`DELETE FROM df_session_withdrawals WHERE session_id = $1 AND user_id = $2`, [p.sessionId, p.userId]);
      },
      DeviceSessionInvitationRevoked: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE df_session_invitations SET revoked_at = coalesce(revoked_at, $2) WHERE invitation_id = $1`, [p.invitationId, at]);
        await tx.query(`DELETE FROM df_session_grants WHERE invitation_id = $1`, [p.invitationId]);
      },
      DeviceSessionInvitationAccepted: async (tx, { payload: p }, at) => {
        await tx.query(`UPDATE df_session_invitations SET uses = GREATEST(uses, $2) WHERE invitation_id = $1`, [p.invitationId, p.uses]);
        await tx.query(
          `INSERT INTO df_session_grants (session_id, user_id, invitation_id, access, granted_at) VALUES ($1,$2,$3,$4,$5)
           ON CONFLICT (session_id, user_id, invitation_id) DO NOTHING`,
          [p.sessionId, p.userId, p.invitationId, p.access, at],
        );
      },
      // Who watched is audit history (org-audit), not part of who may watch.
      DeviceSessionViewerJoined: async () => {},
      DeviceSessionViewerDisconnected: async (tx, { payload: p }, at, recorded) => {
        await tx.query(`DELETE FROM df_session_grants WHERE session_id = $1 AND user_id = $2`, [p.sessionId, p.userId]);
        const by = typeof recorded.metadata.actorId === 'number' ? recorded.metadata.actorId : null;
        await tx.query(
          `INSERT INTO df_session_withdrawals (session_id, user_id, withdrawn_at, withdrawn_by) VALUES ($1,$2,$3,$4)
           ON CONFLICT (session_id, user_id) DO UPDATE SET withdrawn_at = excluded.withdrawn_at, withdrawn_by = excluded.withdrawn_by`,
          [p.sessionId, p.userId, at, by],
        );
      },
    },
    sharingEvents,
  ),
};
