import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import { projectRoutes } from './routes.js';

export { projectDecider, projectKeyDecider } from './decide.js';
export { definedOnly, Project, projectOr404 } from './routes.js';

export interface ProjectsFeatureOptions {
  platform: Platform;
}

/** Projects (`/v1/projects`, and the workspace's under `/tmt/company/api/v1/projects`): what test cases and sessions belong to. */
export const projectsFeature = fp<ProjectsFeatureOptions>(routePlugins(projectRoutes), { name: 'tmt-projects', fastify: '5.x', dependencies: [] });
