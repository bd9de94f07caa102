export { userGroupDecider, type UserGroupCommand, type UserGroupState } from './decide.js';
export { USER_GROUP_EVENT_TYPES, userGroupStream, type UserGroupEvent } from '#events/tmt/user-groups.js';
export { foldName, TmtNames, tmtNameClaimDecider, tmtNameClaimStream, type TmtNameScope } from './name-claim.js';
export { userGroupRoutes } from './routes.js';
