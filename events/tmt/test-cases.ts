import type { DomainEvent } from '#shared/es/decider.js';

export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export const CASE_STATUSES = ['draft', 'ready', 'deprecated'] as const;
export type Priority = (typeof PRIORITIES)[number];
export type CaseStatus = (typeof CASE_STATUSES)[number];

export interface TestStep {
  action: string;
  expected: string;
}

/** What a test case says; `projectId` never changes. */
export interface TestCaseFields {
  title: string;
  description: string;
  priority: Priority;
  status: CaseStatus;
  steps: TestStep[];
}

export type TestCaseEvent =
  | DomainEvent<'TestCaseCreated', { testCaseId: string; companyId: number; workspaceId: number; projectId: string } & TestCaseFields>
  | DomainEvent<'TestCaseUpdated', { testCaseId: string; changes: Partial<TestCaseFields> }>
  | DomainEvent<'TestCaseDeleted', { testCaseId: string }>;

export const TEST_CASE_EVENT_TYPES = ['TestCaseCreated', 'TestCaseUpdated', 'TestCaseDeleted'] as const satisfies readonly TestCaseEvent['type'][];

export const testCaseStream = (testCaseId: string) => `tmt-test-case-${testCaseId}`;
