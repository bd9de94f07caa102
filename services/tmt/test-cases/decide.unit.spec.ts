import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { testCaseDecider } from './decide.js';
import type { TestCaseEvent } from '#events/tmt/test-cases.js';

const spec = deciderSpec(testCaseDecider);
const created = {
  testCaseId: 'c-1',
  companyId: 1,
  workspaceId: 2,
  projectId: 'p-1',
  title: 'Log in',
  description: '',
  priority: 'high' as const,
  status: 'draft' as const,
  steps: [{ action: 'open', expected: 'form' }],
};
const Created: TestCaseEvent = { type: 'TestCaseCreated', payload: created };
const Deleted: TestCaseEvent = { type: 'TestCaseDeleted', payload: { testCaseId: 'c-1' } };

describe('test case decider', () => {
  it('creates a case once', () => {
    spec.given([]).when({ type: 'CreateTestCase', ...created }).then([Created]);
    spec.given([Created]).when({ type: 'CreateTestCase', ...created }).thenRefused('ALREADY_EXISTS');
  });

  it('records only what changes, steps compared by value', () => {
    spec
      .given([Created])
      .when({ type: 'UpdateTestCase', changes: { priority: 'low', status: 'draft', steps: [{ action: 'open', expected: 'form' }] } })
      .then([{ type: 'TestCaseUpdated', payload: { testCaseId: 'c-1', changes: { priority: 'low' } } }]);
    spec.given([Created]).when({ type: 'UpdateTestCase', changes: { title: 'Log in', steps: [{ action: 'open', expected: 'form' }] } }).then([]);
    spec
      .given([Created, { type: 'TestCaseUpdated', payload: { testCaseId: 'c-1', changes: { status: 'ready' } } }])
      .when({ type: 'UpdateTestCase', changes: { status: 'ready' } })
      .then([]);
  });

  it('deletes once; a missing or deleted case is not found', () => {
    spec.given([Created]).when({ type: 'DeleteTestCase' }).then([Deleted]);
    spec.given([Created, Deleted]).when({ type: 'DeleteTestCase' }).thenRefused('NOT_FOUND');
    spec.given([Created, Deleted]).when({ type: 'UpdateTestCase', changes: { title: 'x' } }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'DeleteTestCase' }).thenRefused('NOT_FOUND');
  });
});
