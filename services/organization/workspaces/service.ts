import type { WorkspaceView } from '#projections/org-directory/index.js';
import type { ModuleKey } from '#events/organization/modules.js';
import { workspaceStream } from '#events/organization/workspaces.js';
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
}
