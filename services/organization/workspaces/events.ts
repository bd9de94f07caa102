import type { ModuleKey } from '../modules.js';

export type WorkspaceEvent = {
  type: 'WorkspaceCreated';
  payload: {
    workspaceId: number;
    companyId: number;
    name: string;
    description: string;
    settings: Record<string, unknown>;
    modules: ModuleKey[];
  };
};

export const workspaceStream = (workspaceId: number): string => `workspace-${workspaceId}`;
