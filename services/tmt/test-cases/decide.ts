import { lifecycleDecider } from '#shared/es/index.js';
import type { TestCaseEvent, TestCaseFields } from '#events/tmt/test-cases.js';

type Created = Extract<TestCaseEvent, { type: 'TestCaseCreated' }>['payload'];

/** A test case: created once, changed while it exists (only what differs is recorded), deleted at most once. */
export const testCaseDecider = lifecycleDecider<TestCaseFields, 'testCaseId', Created>()({
  what: 'Test case',
  idKey: 'testCaseId',
  fields: ['title', 'description', 'priority', 'status', 'steps'],
  names: { create: 'CreateTestCase', update: 'UpdateTestCase', delete: 'DeleteTestCase', created: 'TestCaseCreated', updated: 'TestCaseUpdated', deleted: 'TestCaseDeleted' },
});
