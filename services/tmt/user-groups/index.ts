import fp from 'fastify-plugin';
import { routePlugins } from '#shared/http/feature-plugin.js';
import type { Platform } from '../../platform.js';
import { userGroupRoutes } from './routes.js';

export { userGroupDecider, type UserGroupCommand, type UserGroupState } from './decide.js';
export { USER_GROUP_EVENT_TYPES, userGroupStream, type UserGroupEvent } from '#events/tmt/user-groups.js';
export { foldName, TmtNames, tmtNameClaimDecider, tmtNameClaimStream, type TmtNameScope } from './name-claim.js';

export interface UserGroupsFeatureOptions {
  platform: Platform;
}

/** User groups of the workspace (`/tmt/company/api/v1/userGroups`), their names unique per workspace. */
export const userGroupsFeature = fp<UserGroupsFeatureOptions>(
  routePlugins(userGroupRoutes),
  { name: 'tmt-user-groups', fastify: '5.x', dependencies: [] },
);
