export { workspaceDecider, type WorkspaceCommand, type WorkspaceState, type LiveWorkspace } from './decide.js';
export { workspaceStream, workspaceVisitStream, type WorkspaceEvent, type WorkspaceVisitEvent, type Grantee } from '#events/organization/workspaces.js';
