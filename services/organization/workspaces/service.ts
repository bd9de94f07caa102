import type { WorkspaceView } from '#projections/org-directory/index.js';
import type { ModuleKey } from '#events/organization/modules.js';
import { workspaceStream, type Grantee } from '#events/organization/workspaces.js';
import type { CommandContext } from '#shared/es/index.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import { OrgNames } from '../claims/index.js';
import { orgAggregate } from '../service.js';
import { workspaceDecider } from './decide.js';

const nameScope = (companyId: number) => `workspace-name:${companyId}` as const;

/**
 * The write side of workspaces (permission checks by the caller): each workspace's name claimed in its
 * company first (unique, case-insensitive), moved when it is renamed, released when it goes.
 */
export class WorkspaceWrites {
  private readonly names: OrgNames;
  private readonly workspaces;

  constructor(private readonly platform: Platform) {
    this.names = new OrgNames(platform);
    this.workspaces = orgAggregate(platform, workspaceDecider, workspaceStream);
  }

  /** A new workspace; `grantCreator`: the creator (not an administrator) who is given access to it. */
  async create(
    companyId: number,
    input: { name: string; description: string; settings: Record<string, unknown>; modules: ModuleKey[]; grantCreator?: number },
    context: CommandContext,
  ): Promise<number> {
    const workspaceId = await allocateId(this.platform.db, 'workspace');
    const ctx = { ...context, workspaceId };
    await this.names.claim(nameScope(companyId), input.name, workspaceId, 'Workspace', ctx);
    await this.workspaces.run(workspaceId, { type: 'CreateWorkspace', workspaceId, companyId, ...input }, ctx);
    return workspaceId;
  }

  async update(ws: WorkspaceView, changes: { name?: string; description?: string; settings?: Record<string, unknown> }, ctx: CommandContext): Promise<void> {
    const result = await this.names.renamed(nameScope(ws.companyId), 'Workspace', ws.id, ws.name, changes.name, ctx, () =>
      this.workspaces.run(ws.id, { type: 'UpdateWorkspace', companyId: ws.companyId, ...changes }, ctx, { settle: false }),
    );
    await this.workspaces.settle(result);
  }

  async delete(ws: WorkspaceView, ctx: CommandContext): Promise<void> {
    const result = await this.workspaces.run(ws.id, { type: 'DeleteWorkspace', companyId: ws.companyId }, ctx, { settle: false });
    await this.names.release(nameScope(ws.companyId), ws.name, ws.id, ctx);
    await this.workspaces.settle(result);
  }

  /** Ends a team's or user's access grant (404 when there is none; 409 WORKSPACE_ARCHIVED while archived). */
  async revokeAccess(ws: Pick<WorkspaceView, 'id' | 'companyId'>, grantee: Grantee, ctx: CommandContext): Promise<void> {
    await this.workspaces.run(ws.id, { type: 'RevokeAccess', companyId: ws.companyId, grantee }, ctx);
  }

  /** Takes one member role from a user in the workspace (404 when they do not hold it there). */
  async removeMemberRole(ws: Pick<WorkspaceView, 'id' | 'companyId'>, userId: number, roleId: number, ctx: CommandContext): Promise<void> {
    await this.workspaces.run(ws.id, { type: 'RemoveMemberRole', companyId: ws.companyId, userId, roleId }, ctx);
  }
}
