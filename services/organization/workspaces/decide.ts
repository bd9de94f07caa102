import { AppError } from '#shared/errors.js';
import type { Decider } from '#shared/es/decider.js';
import type { ModuleKey } from '../modules.js';
import type { WorkspaceEvent } from './events.js';

export type WorkspaceCommand = { type: 'CreateWorkspace' } & Extract<WorkspaceEvent, { type: 'WorkspaceCreated' }>['payload'];

export type WorkspaceState =
  | { status: 'none' }
  | { status: 'active'; workspaceId: number; companyId: number; name: string; modules: ModuleKey[] };

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: () => ({ status: 'none' }),
  evolve(_state, event) {
    switch (event.type) {
      case 'WorkspaceCreated': {
        const p = event.payload;
        return { status: 'active', workspaceId: p.workspaceId, companyId: p.companyId, name: p.name, modules: p.modules };
      }
      default: {
        const never: never = event.type;
        return never;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateWorkspace': {
        if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Workspace already exists');
        const { type: _type, ...payload } = command;
        return [{ type: 'WorkspaceCreated', payload }];
      }
      default: {
        const never: never = command.type;
        return never;
      }
    }
  },
};
