import { undeletedSessionById, type SessionRecord } from '#projections/df-sessions/index.js';
import { accessWithdrawn, sharedAccess } from '#projections/df-session-sharing/index.js';
import { getUser } from '#projections/org-directory/index.js';
import type { SessionAccess } from '#events/df/sharing.js';
import type { Sql } from '#shared/db/index.js';
import type { FastifyRequest } from 'fastify';
import { AppError } from '#shared/errors.js';
import { requirePermission, requirePrincipal } from '#shared/http/principal.js';
import type { Platform } from '../../platform.js';
import type { Caller } from '../http.js';

/** How a user reaches a session's content (screen, device and data), and through what. */
export interface SessionViewerAccess {
  session: SessionRecord;
  access: SessionAccess;
  /**
   * The session's owner, a holder of `df:session:manage` in its workspace, an accepted invitation, or a
   * holder of `df:session:review` in its workspace (view only).
   */
  via: 'owner' | 'manager' | 'invitation' | 'reviewer';
}

/** The sentence every refusal of a session's content carries (the console shows the same). */
export const CONTENT_FORBIDDEN_MESSAGE = "Only the session's owner, the people it is shared with and reviewers can see its screen";

/**
 * The one rule for a session's content: what shows its device's screen or data (live screen,
 * screenshots, UI tree, logs, recordings and replay frames, artifacts, the WebDriver command log,
 * apps and files of the device, debugging, accessibility scans). Open to its owner (driving with
 * `df:session:create`), a holder of `df:session:manage` in its workspace (control), the users an
 * accepted invitation names (with its access; an automation session only ever `view`) and a holder
 * of `df:session:review` in its workspace (view only). Another company's session, or one of another
 * workspace the user was not invited to, is 404; any other reader of the workspace is 403
 * `SESSION_CONTENT_FORBIDDEN` (they still see the session's record), and 403
 * `SESSION_ACCESS_WITHDRAWN` once the owner disconnected them.
 */
export async function sessionViewerAccess(
  db: Sql,
  user: { userId: number; companyId: number },
  workspace: { id: number; companyId: number } | null,
  keys: ReadonlySet<string>,
  sessionId: string,
): Promise<SessionViewerAccess> {
  const session = await undeletedSessionById(db, sessionId);
  if (!session) throw new AppError('NOT_FOUND', 'Session not found');
  return accessToSession(db, user, workspace, keys, session);
}

/** {@link sessionViewerAccess} for a session already read (not removed): the rule itself, its refusals included. */
export async function accessToSession(
  db: Sql,
  user: { userId: number; companyId: number },
  workspace: { id: number; companyId: number } | null,
  keys: ReadonlySet<string>,
  session: SessionRecord,
): Promise<SessionViewerAccess> {
  if (session.companyId !== user.companyId) throw new AppError('NOT_FOUND', 'Session not found');
  const inWorkspace = workspace !== null && workspace.id === session.workspaceId && workspace.companyId === session.companyId;
  const owner = session.ownerId === user.userId;
  if (inWorkspace && owner && keys.has('df:session:create')) return { session, access: 'control', via: 'owner' };
  if (inWorkspace && keys.has('df:session:manage')) return { session, access: 'control', via: 'manager' };
  if (inWorkspace && owner && keys.has('df:session:read')) return { session, access: 'view', via: 'owner' };
  const granted = await sharedAccess(db, session.id, user.userId);
  if (granted) return { session, access: session.type === 'automation' ? 'view' : granted, via: 'invitation' };
  if (inWorkspace && keys.has('df:session:review')) return { session, access: 'view', via: 'reviewer' };
  if (!inWorkspace || !keys.has('df:session:read')) throw new AppError('NOT_FOUND', 'Session not found');
  if (await accessWithdrawn(db, session.id, user.userId)) throw new AppError('SESSION_ACCESS_WITHDRAWN', "The session's owner disconnected you from this session");
  throw new AppError('SESSION_CONTENT_FORBIDDEN', CONTENT_FORBIDDEN_MESSAGE);
}

/** A session's content for a request, and the caller acting in the session's workspace. */
export interface SessionContent extends SessionViewerAccess {
  caller: { userId: number; companyId: number; workspaceId: number };
}

/**
 * What every content route of a session calls: {@link sessionViewerAccess} for the request's user,
 * and, when the route drives the device (`need: 'control'`), 403 `FORBIDDEN` for view-only access.
 */
export async function sessionContent(db: Sql, request: FastifyRequest, sessionId: string, need: SessionAccess = 'view'): Promise<SessionContent> {
  const principal = requirePrincipal(request);
  const found = await sessionViewerAccess(db, principal, request.workspace ?? null, await request.permissions(), sessionId);
  if (need === 'control' && found.access !== 'control') throw new AppError('FORBIDDEN', 'View-only access: you may watch this session but not drive its device');
  return { ...found, caller: { userId: principal.userId, companyId: found.session.companyId, workspaceId: found.session.workspaceId } };
}

/** Whether the request's user may see the session's content: false where {@link sessionContent} refuses it with 403. */
export async function sessionContentVisible(db: Sql, request: FastifyRequest, sessionId: string): Promise<boolean> {
  try {
    await sessionContent(db, request, sessionId);
    return true;
  } catch (err) {
    if (err instanceof AppError && (err.code === 'SESSION_CONTENT_FORBIDDEN' || err.code === 'SESSION_ACCESS_WITHDRAWN')) return false;
    throw err;
  }
}

/** A user's display name (their id when the directory does not know them). */
export async function userName(db: Sql, companyId: number, userId: number): Promise<string> {
  return (await getUser(db, companyId, userId))?.name ?? `user ${userId}`;
}

/** Who may debug a session: control of it (owner, session manager, or a `control` invitation) and `df:debug:use`. */
export async function debugAccess(platform: Pick<Platform, 'db'>, request: FastifyRequest, sessionId: string): Promise<{ session: SessionRecord; caller: Caller; manager: boolean }> {
  const { session, caller, via } = await sessionContent(platform.db, request, sessionId, 'control');
  await requirePermission(request, 'df:debug:use');
  return { session, caller, manager: via !== 'invitation' };
}
