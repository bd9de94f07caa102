import { randomUUID } from 'node:crypto';
import type { ProjectView } from '#projections/tmt-projects/index.js';
import { projectKeyStream, projectStream } from '#events/tmt/projects.js';
import { aggregate } from '#shared/es/index.js';
import type { CommandContext } from '#shared/es/index.js';
import type { Platform } from '../../platform.js';
import type { TmtWriteScope } from '../http.js';
import { projectDecider, projectKeyDecider } from './decide.js';

/**
 * The write side of projects: each project an aggregate answering once its read models hold the write (a
 * deleted project takes its cases and sessions along), its key claimed in the company first (unique) and
 * released when it changes or the project goes.
 */
export function projectWrites(platform: Platform) {
  const projects = aggregate(platform, { decider: projectDecider, stream: projectStream, readModels: ['tmt-projects', 'tmt-test-cases', 'tmt-test-sessions'] });
  // A key's claim is its own stream (named by company and key), read by no read model: nothing to settle.
  const keys = aggregate(platform, { decider: projectKeyDecider, stream: (keyStream) => keyStream, readModels: [] });
  const claimKey = (scope: TmtWriteScope, projectId: string, key: string, ctx: CommandContext) =>
    keys.run(projectKeyStream(scope.companyId, key), { type: 'ClaimProjectKey', companyId: scope.companyId, key, projectId }, ctx, { settle: false });
  const releaseKey = (scope: TmtWriteScope, projectId: string, key: string, ctx: CommandContext) =>
    keys.run(projectKeyStream(scope.companyId, key), { type: 'ReleaseProjectKey', companyId: scope.companyId, key, projectId }, ctx, { settle: false });

  return {
    /** A new project; the key is claimed first, so a duplicate key creates nothing. */
    async create(scope: TmtWriteScope, input: { name: string; key: string; description: string }, ctx: CommandContext): Promise<string> {
      const projectId = randomUUID();
      await claimKey(scope, projectId, input.key, ctx);
      try {
        await projects.run(projectId, { type: 'CreateProject', projectId, companyId: scope.companyId, workspaceId: scope.workspaceId, ...input }, ctx);
      } catch (err) {
        await releaseKey(scope, projectId, input.key, ctx);
        throw err;
      }
      return projectId;
    },

    /** Changes name, key or description; a new key is claimed before, the old one released after. */
    async update(scope: TmtWriteScope, project: ProjectView, changes: { name?: string; key?: string; description?: string }, ctx: CommandContext): Promise<void> {
      const newKey = changes.key !== undefined && changes.key !== project.key ? changes.key : undefined;
      if (newKey) await claimKey(scope, project.id, newKey, ctx);
      let appended;
      try {
        appended = await projects.run(project.id, { type: 'UpdateProject', changes }, ctx, { settle: false });
      } catch (err) {
        if (newKey) await releaseKey(scope, project.id, newKey, ctx);
        throw err;
      }
      if (newKey) await releaseKey(scope, project.id, project.key, ctx);
      await projects.settle(appended);
    },

    /** Deletes the project (its cases and sessions with it); its key can be used again. */
    async delete(scope: TmtWriteScope, project: ProjectView, ctx: CommandContext): Promise<void> {
      const appended = await projects.run(project.id, { type: 'DeleteProject' }, ctx, { settle: false });
      await releaseKey(scope, project.id, project.key, ctx);
      await projects.settle(appended);
    },
  };
}
