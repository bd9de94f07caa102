import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { tenantScope } from '../fields.js';

export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export const CASE_STATUSES = ['draft', 'ready', 'deprecated'] as const;
export type Priority = (typeof PRIORITIES)[number];
export type CaseStatus = (typeof CASE_STATUSES)[number];

const testStep = z.object({ action: z.string(), expected: z.string() });
export type TestStep = z.output<typeof testStep>;

/** What a test case says; `projectId` never changes. */
const testCaseFields = z.object({
  title: z.string(),
  description: z.string(),
  priority: z.enum(PRIORITIES),
  status: z.enum(CASE_STATUSES),
  steps: z.array(testStep),
});
export type TestCaseFields = z.output<typeof testCaseFields>;

/** A test case of a project (`tmt-test-case-<id>`). */
export const testCaseEvents = defineEvents({
  TestCaseCreated: testCaseFields.extend({ testCaseId: z.string(), ...tenantScope, projectId: z.string() }),
  TestCaseUpdated: z.object({ testCaseId: z.string(), changes: testCaseFields.partial() }),
  TestCaseDeleted: z.object({ testCaseId: z.string() }),
});
export type TestCaseEvent = EventOf<typeof testCaseEvents>;
export const TEST_CASE_EVENT_TYPES = testCaseEvents.types;
export const testCaseStream = (testCaseId: string) => `tmt-test-case-${testCaseId}`;
