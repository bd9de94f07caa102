// The directory's queries by topic (projections/org-directory/queries/).
export type { DirectoryUser, AccessibleWorkspace, UserView, RoleRow, TeamView, WorkspaceView } from './views.js';
export * from './sign-in.js';
export * from './users.js';
export * from './roles.js';
export * from './teams.js';
export * from './workspaces.js';
