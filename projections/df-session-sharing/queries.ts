import type { Sql } from '#shared/db/index.js';
import { type Row, iso, isoOrNull, numOrNull, textOrNull } from '#shared/db/index.js';
import { oneOrNull } from '../queries.js';
import type { InvitationType, SessionAccess } from '#events/df/sharing.js';

/** An invitation as its session's owner sees it (never its token). */
export interface InvitationView {
  id: string;
  type: InvitationType;
  access: SessionAccess;
  userId: number | null;
  email: string | null;
  expiresAt: string;
  maxUses: number | null;
  uses: number;
  createdAt: string;
  createdBy: number;
  revokedAt: string | null;
}

/** An invitation as accepting it needs: where it leads and who may take it. */
export interface InvitationRecord extends InvitationView {
  sessionId: string;
  companyId: number;
  workspaceId: number;
}

const COLUMNS = `invitation_id, session_id, company_id, workspace_id, type, access, user_id, email, expires_at, max_uses, uses, created_by, created_at, revoked_at`;

const toView = (r: Row): InvitationView => ({
  id: String(r.invitation_id),
  type: r.type as InvitationType,
  access: r.access as SessionAccess,
  userId: numOrNull(r.user_id),
  email: textOrNull(r.email),
  expiresAt: iso(r.expires_at),
  maxUses: numOrNull(r.max_uses),
  uses: Number(r.uses),
  createdBy: Number(r.created_by),
  createdAt: iso(r.created_at),
  revokedAt: isoOrNull(r.revoked_at),
});

const toRecord = (r: Row): InvitationRecord => ({ ...toView(r), sessionId: String(r.session_id), companyId: Number(r.company_id), workspaceId: Number(r.workspace_id) });

/** The public fields of an invitation. */
export function toInvitationView(r: InvitationRecord): InvitationView {
  const { sessionId: _s, companyId: _c, workspaceId: _w, ...view } = r;
  return view;
}

/** The invitations of one type to a session that are not revoked, oldest first. */
export async function listInvitations(db: Sql, sessionId: string, type: InvitationType): Promise<InvitationView[]> {
  const r = await db.query(`SELECT ${COLUMNS} FROM df_session_invitations WHERE session_id = $1 AND type = $2 AND revoked_at IS NULL ORDER BY created_at, invitation_id`, [sessionId, type]);
  return r.rows.map(toView);
}

/** One invitation of a session (revoked ones too), or null. */
export async function findInvitation(db: Sql, sessionId: string, invitationId: string, type: InvitationType): Promise<InvitationRecord | null> {
  return oneOrNull(db, `SELECT ${COLUMNS} FROM df_session_invitations WHERE session_id = $1 AND invitation_id = $2 AND type = $3`, [sessionId, invitationId, type], toRecord);
}

/** The invitation whose token has this SHA-256, or null. */
export async function invitationByTokenHash(db: Sql, tokenHash: string): Promise<InvitationRecord | null> {
  return oneOrNull(db, `SELECT ${COLUMNS} FROM df_session_invitations WHERE token_hash = $1`, [tokenHash], toRecord);
}

/** The strongest access a user holds to a session through accepted invitations, or null. */
export async function sharedAccess(db: Sql, sessionId: string, userId: number): Promise<SessionAccess | null> {
  const r = await db.query<{ access: string }>(
    `SELECT access FROM df_session_grants WHERE session_id = $1 AND user_id = $2 ORDER BY (access = 'control') DESC LIMIT 1`,
    [sessionId, userId],
  );
  return (r.rows[0]?.access as SessionAccess | undefined) ?? null;
}

/** The users holding access to a session through one invitation. */
export async function holdersOf(db: Sql, invitationId: string): Promise<number[]> {
  const r = await db.query<{ user_id: unknown }>(`SELECT user_id FROM df_session_grants WHERE invitation_id = $1`, [invitationId]);
  return r.rows.map((row) => Number(row.user_id));
}

/** Whether the session's owner disconnected this user (and no user invitation named them since). */
export async function accessWithdrawn(db: Sql, sessionId: string, userId: number): Promise<boolean> {
  const r = await db.query(`SELECT 1 FROM df_session_withdrawals WHERE session_id = $1 AND user_id = $2`, [sessionId, userId]);
  return r.rows.length > 0;
}
