import { type Decider, defineDecider, firstEvent } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { ProjectEvent, ProjectFields, ProjectKeyEvent } from '#events/tmt/projects.js';
import { unreachable } from '#shared/unreachable.js';

type Created = Extract<ProjectEvent, { type: 'ProjectCreated' }>['payload'];

export interface ProjectState {
  project: Created | null;
  deleted: boolean;
}

export type ProjectCommand =
  | ({ type: 'CreateProject' } & Created)
  | { type: 'UpdateProject'; changes: Partial<ProjectFields> }
  | { type: 'DeleteProject' };

const live = (state: ProjectState): Created => {
  if (!state.project || state.deleted) throw new AppError('NOT_FOUND', 'Project not found');
  return state.project;
};

/** A project: created once, changed while it exists, deleted at most once. */
export const projectDecider = defineDecider<ProjectCommand, ProjectEvent, ProjectState>({
  initialState: () => ({ project: null, deleted: false }),
  evolve: {
    ProjectCreated: (state, event) => ({ project: event.payload, deleted: false }),
    ProjectUpdated: (state, event) => state.project ? { ...state, project: { ...state.project, ...event.payload.changes } } : state,
    ProjectDeleted: (state, event) => ({ ...state, deleted: true }),
  },
  decide: {
    CreateProject: (command, state) => [firstEvent(state.project, 'Project', 'ProjectCreated', command)],
    UpdateProject: (command, state) => {
      const project = live(state);
      const changes: Partial<ProjectFields> = {};
      for (const k of ['name', 'key', 'description'] as const) {
        const v = command.changes[k];
        if (v !== undefined && v !== project[k]) changes[k] = v;
      }
      return Object.keys(changes).length === 0 ? [] : [{ type: 'ProjectUpdated', payload: { projectId: project.projectId, changes } }];
    },
    DeleteProject: (command, state) => {
      const project = live(state);
      return [{ type: 'ProjectDeleted', payload: { projectId: project.projectId } }];
    },
  },
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
