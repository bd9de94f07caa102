import { lifecycleDecider } from '#shared/es/index.js';
import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { ProjectEvent, ProjectFields, ProjectKeyEvent } from '#events/tmt/projects.js';

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
export const projectKeyDecider = defineDecider<ProjectKeyCommand, ProjectKeyEvent, ProjectKeyState>({
  initialState: () => ({ holder: null }),
  evolve: {
    ProjectKeyClaimed: (_state, event) => ({ holder: event.payload.projectId }),
    ProjectKeyReleased: (state, event) => (state.holder === event.payload.projectId ? { holder: null } : state),
  },
  decide: {
    ClaimProjectKey: ({ companyId, key, projectId }, state) => {
      if (state.holder === projectId) return [];
      if (state.holder !== null) throw new AppError('PROJECT_KEY_TAKEN', `Project key "${key}" is already used in this company`);
      return [{ type: 'ProjectKeyClaimed', payload: { companyId, key, projectId } }];
    },
    ReleaseProjectKey: ({ companyId, key, projectId }, state) =>
      state.holder === projectId ? [{ type: 'ProjectKeyReleased', payload: { companyId, key, projectId } }] : [],
  },
});
