import { isDeepStrictEqual } from 'node:util';
import { defineDecider, firstEvent } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { TestCaseEvent, TestCaseFields } from '#events/tmt/test-cases.js';

type Created = Extract<TestCaseEvent, { type: 'TestCaseCreated' }>['payload'];

export interface TestCaseState {
  testCase: Created | null;
  deleted: boolean;
}

export type TestCaseCommand =
  | ({ type: 'CreateTestCase' } & Created)
  | { type: 'UpdateTestCase'; changes: Partial<TestCaseFields> }
  | { type: 'DeleteTestCase' };

const FIELDS = ['title', 'description', 'priority', 'status', 'steps'] as const;

const live = (state: TestCaseState): Created => {
  if (!state.testCase || state.deleted) throw new AppError('NOT_FOUND', 'Test case not found');
  return state.testCase;
};

/** A test case: created once, changed while it exists (only what differs is recorded), deleted at most once. */
export const testCaseDecider = defineDecider<TestCaseCommand, TestCaseEvent, TestCaseState>({
  initialState: () => ({ testCase: null, deleted: false }),
  evolve: {
    TestCaseCreated: (state, event) => ({ testCase: event.payload, deleted: false }),
    TestCaseUpdated: (state, event) => state.testCase ? { ...state, testCase: { ...state.testCase, ...event.payload.changes } } : state,
    TestCaseDeleted: (state, event) => ({ ...state, deleted: true }),
  },
  decide: {
    CreateTestCase: (command, state) => [firstEvent(state.testCase, 'Test case', 'TestCaseCreated', command)],
    UpdateTestCase: (command, state) => {
      const testCase = live(state);
      const changes: Record<string, unknown> = {};
      for (const k of FIELDS) {
        const v = command.changes[k];
        if (v !== undefined && !isDeepStrictEqual(v, testCase[k])) changes[k] = v;
      }
      return Object.keys(changes).length === 0
        ? []
        : [{ type: 'TestCaseUpdated', payload: { testCaseId: testCase.testCaseId, changes: changes as Partial<TestCaseFields> } }];
    },
    DeleteTestCase: (command, state) => {
      const testCase = live(state);
      return [{ type: 'TestCaseDeleted', payload: { testCaseId: testCase.testCaseId } }];
    },
  },
});
