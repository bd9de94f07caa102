import { lifecycleDecider } from '#shared/es/lifecycle-decider.js';
import type { Decider } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { ProjectEvent, ProjectFields, ProjectKeyEvent } from '#events/tmt/projects.js';
import { unreachable } from '#shared/unreachable.js';

type Created = Extract<ProjectEvent, { type: 'ProjectCreated' }>['payload'];

/** A project: created once, changed while it exists, deleted at most once. */
export const projectDecider = lifecycleDecider<ProjectFields, 'projectId', Created>()({
  what: 'Project',
  idKey: 'projectId',
  fields: ['name', 'key', 'description'],
  names: { create: 'CreateProject', update: 'UpdateProject', delete: 'DeleteProject', created: 'ProjectCreated', updated: 'ProjectUpdated', deleted: 'ProjectDeleted' },
});

export interface ProjectKeyState {
  holder: string | null;
}

export type ProjectKeyCommand =
  | { type: 'ClaimProjectKey'; companyId: number; key: string; projectId: string }
  | { type: 'ReleaseProjectKey'; companyId: number; key: string; projectId: string };

/** A project key of a company: held by at most one project; claiming a held key is 409 PROJECT_KEY_TAKEN. */
export const projectKeyDecider: Decider<ProjectKeyCommand, ProjectKeyEvent, ProjectKeyState> = {
  initialState: () => ({ holder: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'ProjectKeyClaimed':
        return { holder: event.payload.projectId };
      case 'ProjectKeyReleased':
        return state.holder === event.payload.projectId ? { holder: null } : state;
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    const { companyId, key, projectId } = command;
    switch (command.type) {
      case 'ClaimProjectKey':
        if (state.holder === projectId) return [];
        if (state.holder !== null) throw new AppError('PROJECT_KEY_TAKEN', `Project key "${key}" is already used in this company`);
        return [{ type: 'ProjectKeyClaimed', payload: { companyId, key, projectId } }];
      case 'ReleaseProjectKey':
        return state.holder === projectId ? [{ type: 'ProjectKeyReleased', payload: { companyId, key, projectId } }] : [];
      default:
        return unreachable(command, 'command');
    }
  },
};
