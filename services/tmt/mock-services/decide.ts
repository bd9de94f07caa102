import { defineDecider, firstEvent } from '#shared/es/index.js';
import { whileActive } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { MockServiceEvent } from '#events/tmt/mock-services.js';
import { sameJson } from '#shared/canonical.js';

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
export const mockServiceDecider = defineDecider<MockServiceCommand, MockServiceEvent, MockServiceState>({
  initialState: () => ({ status: 'none' }),
  evolve: {
    MockServiceCreated: (_state, event) => ({ status: 'active', mock: event.payload }),
    MockServiceRedefined: whileActive((state, { payload: { mockId: _id, ...definition } }) => ({ status: 'active', mock: { ...state.mock, ...definition } })),
    MockServiceEnabled: whileActive((state) => ({ status: 'active', mock: { ...state.mock, enabled: true } })),
    MockServiceDisabled: whileActive((state) => ({ status: 'active', mock: { ...state.mock, enabled: false } })),
    MockServiceDeleted: whileActive(() => ({ status: 'deleted' })),
  },
  decide: {
    CreateMockService: (command, state) => [firstEvent(state.status !== 'none', 'Mock service', 'MockServiceCreated', command)],
    RedefineMockService: (command, state) => {
      const mock = live(state, command);
      const { name, module, routes } = command;
      const same = name === mock.name && module === mock.module && sameJson(routes, mock.routes);
      return same ? [] : [{ type: 'MockServiceRedefined', payload: { mockId: mock.mockId, name, module, routes } }];
    },
    EnableMockService: (command, state) => {
      const mock = live(state, command);
      return mock.enabled ? [] : [{ type: 'MockServiceEnabled', payload: { mockId: mock.mockId } }];
    },
    DisableMockService: (command, state) => {
      const mock = live(state, command);
      return mock.enabled ? [{ type: 'MockServiceDisabled', payload: { mockId: mock.mockId } }] : [];
    },
    DeleteMockService: (command, state) => {
      const mock = live(state, command);
      return [{ type: 'MockServiceDeleted', payload: { mockId: mock.mockId, name: mock.name } }];
    },
  },
});
