import type { WorkspaceView } from '#projections/org-directory/index.js';
import type { ModuleKey } from '#events/organization/modules.js';
import { workspaceStream } from '#events/organization/workspaces.js';
import type { CommandContext } from '#shared/es/decider.js';
import { allocateId } from '#shared/ids.js';
import type { Platform } from '../../platform.js';
import { OrgWriter } from '../service.js';
import { workspaceDecider } from './decide.js';

const nameScope = (companyId: number) => `workspace-name:${companyId}` as const;

/**
 * The write side of workspaces (permission checks by the caller): each workspace's name claimed in its
 * company first (unique, case-insensitive), moved when it is renamed, released when it goes.
 */
export class WorkspaceWrites {
  private readonly writer: OrgWriter;

  constructor(private readonly platform: Platform) {
    this.writer = new OrgWriter(platform);
  }

  /** A new workspace; `grantCreator`: the creator (not an administrator) who is given access to it. */
  async create(
    companyId: number,
    input: { name: string; description: string; settings: Record<string, unknown>; modules: ModuleKey[]; grantCreator?: number },
    context: CommandContext,
  ): Promise<number> {
    const workspaceId = await allocateId(this.platform.db, 'workspace');
    const ctx = { ...context, workspaceId };
    await this.writer.claimName(nameScope(companyId), input.name, workspaceId, 'Workspace', ctx);
    await this.writer.settle(await this.writer.run(workspaceStream(workspaceId), workspaceDecider, { type: 'CreateWorkspace', workspaceId, companyId, ...input }, ctx));
    return workspaceId;
  }

  async update(ws: WorkspaceView, changes: { name?: string; description?: string; settings?: Record<string, unknown> }, ctx: CommandContext): Promise<void> {
    const result = await this.writer.renamed(nameScope(ws.companyId), 'Workspace', ws.id, ws.name, changes.name, ctx, () =>
      this.writer.run(workspaceStream(ws.id), workspaceDecider, { type: 'UpdateWorkspace', companyId: ws.companyId, ...changes }, ctx),
    );
    await this.writer.settle(result);
  }

  async delete(ws: WorkspaceView, ctx: CommandContext): Promise<void> {
    const result = await this.writer.run(workspaceStream(ws.id), workspaceDecider, { type: 'DeleteWorkspace', companyId: ws.companyId }, ctx);
    await this.writer.releaseName(nameScope(ws.companyId), ws.name, ws.id, ctx);
    await this.writer.settle(result);
  }
}
