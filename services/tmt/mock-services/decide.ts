import { type Decider, firstEvent } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { MockServiceEvent } from '#events/tmt/mock-services.js';
import { unreachable } from '#shared/unreachable.js';

type Created = Extract<MockServiceEvent, { type: 'MockServiceCreated' }>['payload'];
type Definition = Pick<Created, 'name' | 'module' | 'routes'>;
interface Tenant {
  companyId: number;
  workspaceId: number;
}

export type MockServiceCommand =
  | ({ type: 'CreateMockService' } & Created)
  | ({ type: 'RedefineMockService' } & Tenant & Definition)
  | ({ type: 'EnableMockService' } & Tenant)
  | ({ type: 'DisableMockService' } & Tenant)
  | ({ type: 'DeleteMockService' } & Tenant);

export type MockServiceState = { status: 'none' } | { status: 'active'; mock: Created } | { status: 'deleted' };

function live(state: MockServiceState, tenant: Tenant): Created {
  if (state.status !== 'active' || state.mock.companyId !== tenant.companyId || state.mock.workspaceId !== tenant.workspaceId) {
    throw new AppError('NOT_FOUND', 'Mock service not found');
  }
  return state.mock;
}

/** A mock service: defined, redefined, switched on and off, deleted once. */
export const mockServiceDecider: Decider<MockServiceCommand, MockServiceEvent, MockServiceState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    if (event.type === 'MockServiceCreated') return { status: 'active', mock: event.payload };
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'MockServiceRedefined': {
        const { mockId: _id, ...definition } = event.payload;
        return { status: 'active', mock: { ...state.mock, ...definition } };
      }
      case 'MockServiceEnabled':
        return { status: 'active', mock: { ...state.mock, enabled: true } };
      case 'MockServiceDisabled':
        return { status: 'active', mock: { ...state.mock, enabled: false } };
      case 'MockServiceDeleted':
        return { status: 'deleted' };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateMockService':
        return [firstEvent(state.status !== 'none', 'Mock service', 'MockServiceCreated', command)];
      case 'RedefineMockService': {
        const mock = live(state, command);
        const { name, module, routes } = command;
        const same = name === mock.name && module === mock.module && JSON.stringify(routes) === JSON.stringify(mock.routes);
        return same ? [] : [{ type: 'MockServiceRedefined', payload: { mockId: mock.mockId, name, module, routes } }];
      }
      case 'EnableMockService': {
        const mock = live(state, command);
        return mock.enabled ? [] : [{ type: 'MockServiceEnabled', payload: { mockId: mock.mockId } }];
      }
      case 'DisableMockService': {
        const mock = live(state, command);
        return mock.enabled ? [{ type: 'MockServiceDisabled', payload: { mockId: mock.mockId } }] : [];
      }
      case 'DeleteMockService': {
        const mock = live(state, command);
        return [{ type: 'MockServiceDeleted', payload: { mockId: mock.mockId, name: mock.name } }];
      }
      default:
        return unreachable(command);
    }
  },
};
