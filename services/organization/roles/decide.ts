import { AppError } from '#shared/errors.js';
import { defineDecider } from '#shared/es/decider.js';
import type { RoleEvent } from '#events/organization/roles.js';

type Created = Extract<RoleEvent, { type: 'RoleCreated' }>['payload'];

export type RoleCommand =
  | ({ type: 'CreateRole' } & Created)
  | { type: 'UpdateRole'; companyId: number; name?: string; description?: string; permissions?: string[] }
  | { type: 'DeleteRole'; companyId: number };

export type RoleState =
  | { status: 'none' }
  | { status: 'active'; roleId: number; companyId: number; name: string; description: string; permissions: string[]; builtIn: boolean }
  | { status: 'deleted'; roleId: number };

function live(state: RoleState, companyId: number) {
  if (state.status !== 'active' || state.companyId !== companyId) throw new AppError('NOT_FOUND', 'Role not found');
  // Built-in roles are what docs/api-conventions.md promises every company; changing them would break that.
  if (state.builtIn) throw new AppError('BUILT_IN_ROLE', `The built-in role ${state.name} cannot be changed or deleted`);
  return state;
}

/** A role is a named bundle of permission keys of one company. */
export const roleDecider = defineDecider<RoleCommand, RoleEvent, RoleState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    RoleCreated: (state, event) => ({ status: 'active', ...event.payload }),
    RoleUpdated: (state, event) => {
      if (state.status !== 'active') return state;
      const { roleId: _id, ...changes } = event.payload;
      return { ...state, ...changes };
    },
    RoleDeleted: (state, event) => ({ status: 'deleted', roleId: event.payload.roleId }),
  },
  decide: {
    CreateRole: (command, state) => {
      if (state.status !== 'none') throw new AppError('ALREADY_EXISTS', 'Role already exists');
      const { type: _type, ...payload } = command;
      return [{ type: 'RoleCreated', payload: { ...payload, permissions: [...new Set(payload.permissions)].sort() } }];
    },
    UpdateRole: (command, state) => {
      const role = live(state, command.companyId);
      const changes: { name?: string; description?: string; permissions?: string[] } = {};
      if (command.name !== undefined && command.name !== role.name) changes.name = command.name;
      if (command.description !== undefined && command.description !== role.description) changes.description = command.description;
      if (command.permissions !== undefined) {
        const permissions = [...new Set(command.permissions)].sort();
        if (permissions.join() !== role.permissions.join()) changes.permissions = permissions;
      }
      return Object.keys(changes).length === 0 ? [] : [{ type: 'RoleUpdated', payload: { roleId: role.roleId, ...changes } }];
    },
    DeleteRole: (command, state) => {
      const role = live(state, command.companyId);
      return [{ type: 'RoleDeleted', payload: { roleId: role.roleId, name: role.name } }];
    },
  },
});
