import { AppError } from '#shared/errors.js';
import { defineDecider } from '#shared/es/index.js';
import { activeIn, changedFields, whileActive } from '#shared/es/index.js';
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
  const role = activeIn(state, companyId, 'Role');
  // Built-in roles are what docs/api-conventions.md promises every company; changing them would break that.
  if (role.builtIn) throw new AppError('BUILT_IN_ROLE', `The built-in role ${role.name} cannot be changed or deleted`);
  return role;
}

/** A role is a named bundle of permission keys of one company. */
export const roleDecider = defineDecider<RoleCommand, RoleEvent, RoleState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    RoleCreated: (state, event) => ({ status: 'active', ...event.payload }),
    RoleUpdated: whileActive((state, { payload: { roleId: _id, ...changes } }) => ({ ...state, ...changes })),
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
      const changes: { name?: string; description?: string; permissions?: string[] } = changedFields(role, command, ['name', 'description']);
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
