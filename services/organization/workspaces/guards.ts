import type { FastifyRequest } from 'fastify';
import { findAccessibleWorkspace, getWorkspace, type WorkspaceView } from '#projections/org-directory/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import { callerOf, requestActor } from '../http.js';
import { orgAggregate } from '../service.js';
import { permissionsOf } from '../roles/index.js';
import { workspaceDecider, type WorkspaceCommand } from './decide.js';
import { workspaceStream } from '#events/organization/workspaces.js';
import { commandContext } from '#shared/es/index.js';

/** What the workspace routes ask of the token flow (the auth feature's `AuthService` is one). */
export interface WorkspaceTokenFlow {
  /** A token pair with the workspace baked in, in the caller's sign-in session. */
  switchWorkspace(
    caller: { userId: number; companyId: number; sid?: string; issuedAtMs: number },
    workspaceId: number,
  ): Promise<{ token: string; expiresIn: string; refreshToken: string }>;
}

export interface WorkspacesOptions {
  platform: Platform;
  auth: WorkspaceTokenFlow;
}

export const tags = ['Workspaces'];

/** A workspace as the API shows it. */
export const toWorkspace = (w: WorkspaceView) => ({
  id: w.id,
  name: w.name,
  description: w.description,
  settings: w.settings,
  archived: w.archived,
  modules: w.modules,
  createdAt: w.createdAt,
});

/**
 * What every workspace route asks before it acts — the workspace (404 across companies), the caller's
 * keys in it, whether they may enter it — and how a change is written and read back.
 */
export function workspaceGuards({ platform }: Pick<WorkspacesOptions, 'platform'>) {
  const { db } = platform;
  const workspaces = orgAggregate(platform, workspaceDecider, workspaceStream);

  /** A workspace of the caller's company, or 404 (also for another company's id). */
  const workspaceOr404 = async (request: FastifyRequest, id: number): Promise<WorkspaceView> => {
    return found(await getWorkspace(db, callerOf(request).companyId, id), 'Workspace not found');
  };

  /** The caller's keys in `ws`: permissions are evaluated in the workspace a request acts on. */
  const keysIn = (request: FastifyRequest, ws: WorkspaceView): Promise<ReadonlySet<string>> =>
    request.workspace?.id === ws.id ? request.permissions() : permissionsOf(db, callerOf(request), ws);

  const requireKeyIn = async (request: FastifyRequest, ws: WorkspaceView, key: string): Promise<ReadonlySet<string>> => {
    const keys = await keysIn(request, ws);
    if (!keys.has(key)) throw new AppError('FORBIDDEN', `Missing permission ${key}`);
    return keys;
  };

  const canEnter = async (request: FastifyRequest, ws: WorkspaceView): Promise<boolean> =>
    (await findAccessibleWorkspace(db, callerOf(request), ws.id)) !== null;

  /** Readable by those who may enter it, and by holders of WORKSPACE_READ. */
  const requireReadable = async (request: FastifyRequest, ws: WorkspaceView): Promise<void> => {
    if (await canEnter(request, ws)) return;
    await requireKeyIn(request, ws, 'WORKSPACE_READ');
  };

  /** Runs a command on the workspace and answers from the read model. */
  const change = async (request: FastifyRequest, ws: WorkspaceView, command: WorkspaceCommand): Promise<WorkspaceView> => {
    await workspaces.run(ws.id, command, commandContext(platform, requestActor(request)));
    return workspaceOr404(request, ws.id);
  };

  return { workspaces, workspaceOr404, keysIn, requireKeyIn, canEnter, requireReadable, change };
}
