import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { WorkspacesOptions } from './guards.js';
import { accessRoutes } from './routes/access.js';
import { enteringRoutes } from './routes/entering.js';
import { memberRoutes } from './routes/members.js';
import { moduleRoutes } from './routes/modules.js';
import { workspaceRoutes } from './routes/workspaces.js';

export { workspaceDecider, type WorkspaceCommand, type WorkspaceState, type LiveWorkspace } from './decide.js';
export { workspaceStream, workspaceVisitStream, type WorkspaceEvent, type WorkspaceVisitEvent, type Grantee } from '#events/organization/workspaces.js';
export type { WorkspacesOptions, WorkspaceTokenFlow } from './guards.js';
export { WorkspaceWrites } from './service.js';

/**
 * Workspaces: their life cycle, modules, access grants, members and member roles, and entering them
 * (has-access, my roles, switch, recent visits). Switching asks `organization-auth` for the token pair.
 */
export const workspacesFeature = fp<WorkspacesOptions>(
  routePlugins(workspaceRoutes, enteringRoutes, moduleRoutes, accessRoutes, memberRoutes),
  { name: 'organization-workspaces', fastify: '5.x', dependencies: ['organization-auth'] },
);
