export { workspaceDecider, type WorkspaceCommand, type WorkspaceState } from './decide.js';
export { workspaceStream, type WorkspaceEvent } from './events.js';
