import { sessionById, type SessionRecord } from '#projections/df-sessions/index.js';
import { accessWithdrawn, sharedAccess } from '#projections/df-session-sharing/index.js';
import { getUser } from '#projections/org-directory/index.js';
import type { SessionAccess } from '#events/df/sharing.js';
import type { Sql } from '#shared/db/index.js';
import { AppError } from '#shared/errors.js';

/** How a user reaches a session's screen and device, and through what. */
export interface SessionViewerAccess {
  session: SessionRecord;
  access: SessionAccess;
  /** The session's owner, a holder of `df:session:manage` in its workspace, or an accepted invitation. */
  via: 'owner' | 'manager' | 'invitation';
}

/**
 * Who may watch (`view`) or drive (`control`) a session's device: its owner (driving with
 * `df:session:create`), a holder of `df:session:manage` in its workspace, and the users an accepted
 * invitation names (an automation session only ever `view`). Another company's session, or one of
 * another workspace the user was not invited to, is 404; a reader of the workspace who was not
 * invited is 403, and 403 `SESSION_ACCESS_WITHDRAWN` once the owner disconnected them.
 */
export async function sessionViewerAccess(
  db: Sql,
  user: { userId: number; companyId: number },
  workspace: { id: number; companyId: number } | null,
  keys: ReadonlySet<string>,
  sessionId: string,
): Promise<SessionViewerAccess> {
  const session = await sessionById(db, sessionId);
  if (!session || session.companyId !== user.companyId) throw new AppError('NOT_FOUND', 'Session not found');
  const inWorkspace = workspace !== null && workspace.id === session.workspaceId && workspace.companyId === session.companyId;
  const owner = session.ownerId === user.userId;
  if (inWorkspace && owner && keys.has('df:session:create')) return { session, access: 'control', via: 'owner' };
  if (inWorkspace && keys.has('df:session:manage')) return { session, access: 'control', via: 'manager' };
  if (inWorkspace && owner && keys.has('df:session:read')) return { session, access: 'view', via: 'owner' };
  const granted = await sharedAccess(db, session.id, user.userId);
  if (granted) return { session, access: session.type === 'automation' ? 'view' : granted, via: 'invitation' };
  if (!inWorkspace || !keys.has('df:session:read')) throw new AppError('NOT_FOUND', 'Session not found');
  if (await accessWithdrawn(db, session.id, user.userId)) throw new AppError('SESSION_ACCESS_WITHDRAWN', "The session's owner disconnected you from this session");
  throw new AppError('FORBIDDEN', "Only the session's owner and the people it is shared with can watch it");
}

/** A user's display name (their id when the directory does not know them). */
export async function userName(db: Sql, companyId: number, userId: number): Promise<string> {
  return (await getUser(db, companyId, userId))?.name ?? `user ${userId}`;
}
