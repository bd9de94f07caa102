import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { importCommands, testSessionDecider } from './decide.js';
import type { RecordedResult, TestSessionEvent } from '#events/tmt/test-sessions.js';

const spec = deciderSpec(testSessionDecider);
const started = { sessionId: 's-1', companyId: 1, workspaceId: 2, projectId: 'p-1', name: 'Smoke', testCaseIds: ['c-1', 'c-2'] };
const Started: TestSessionEvent = { type: 'TestSessionStarted', payload: started };
const InProgress: TestSessionEvent = { type: 'TestSessionUpdated', payload: { sessionId: 's-1', status: 'in_progress' } };
const Completed: TestSessionEvent = { type: 'TestSessionCompleted', payload: { sessionId: 's-1' } };
const pass = (testCaseId: string): RecordedResult => ({ testCaseId, status: 'passed', notes: null, durationMs: 12 });
const user = { userId: 7 };

describe('test session decider', () => {
  it('starts a session once, planned', () => {
    spec.given([]).when({ type: 'StartTestSession', ...started }).then([Started]);
    spec.given([Started]).when({ type: 'StartTestSession', ...started }).thenRefused('ALREADY_EXISTS');
    spec.given([]).when({ type: 'UpdateTestSession', name: 'x' }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'RecordResults', results: [pass('c-1')], recordedBy: user }).thenRefused('NOT_FOUND');
  });

  it('moves planned → in_progress → completed, one step at a time', () => {
    spec.given([Started]).when({ type: 'UpdateTestSession', status: 'in_progress' }).then([InProgress]);
    spec.given([Started, InProgress]).when({ type: 'UpdateTestSession', status: 'completed' }).then([Completed]);
    spec.given([Started, InProgress]).when({ type: 'UpdateTestSession', status: 'in_progress' }).then([]);
  });

  it('refuses skipping or going back with 409 INVALID_TRANSITION', () => {
    spec.given([Started]).when({ type: 'UpdateTestSession', status: 'completed' }).thenRefused('INVALID_TRANSITION');
    spec.given([Started, InProgress]).when({ type: 'UpdateTestSession', status: 'planned' }).thenRefused('INVALID_TRANSITION');
    spec.given([Started, InProgress, Completed]).when({ type: 'UpdateTestSession', status: 'in_progress' }).thenRefused('INVALID_TRANSITION');
    spec.given([Started, InProgress, Completed]).when({ type: 'UpdateTestSession', status: 'planned' }).thenRefused('INVALID_TRANSITION');
  });

  it('renames and changes the case list; a completed session keeps its cases but may be renamed', () => {
    spec
      .given([Started])
      .when({ type: 'UpdateTestSession', name: 'Smoke 2', testCaseIds: ['c-2'] })
      .then([{ type: 'TestSessionUpdated', payload: { sessionId: 's-1', name: 'Smoke 2', testCaseIds: ['c-2'] } }]);
    spec.given([Started]).when({ type: 'UpdateTestSession', name: 'Smoke', testCaseIds: ['c-1', 'c-2'] }).then([]);
    spec.given([Started, InProgress, Completed]).when({ type: 'UpdateTestSession', testCaseIds: ['c-1'] }).thenRefused('SESSION_COMPLETED');
    spec.given([Started, InProgress, Completed]).when({ type: 'UpdateTestSession', name: 'Done' }).then([{ type: 'TestSessionUpdated', payload: { sessionId: 's-1', name: 'Done' } }]);
  });

  it('the first result moves a planned session to in_progress; later results only record', () => {
    const results = [pass('c-1'), { ...pass('c-2'), status: 'failed' as const }];
    spec
      .given([Started])
      .when({ type: 'RecordResults', results, recordedBy: user })
      .then([InProgress, { type: 'TestResultsRecorded', payload: { sessionId: 's-1', results, recordedBy: user } }]);
    spec
      .given([Started, InProgress])
      .when({ type: 'RecordResults', results: [pass('c-1')], recordedBy: { engineId: 'e-1' } })
      .then([{ type: 'TestResultsRecorded', payload: { sessionId: 's-1', results: [pass('c-1')], recordedBy: { engineId: 'e-1' } } }]);
  });

  it('refuses a whole batch with a case outside the session, and any result in a completed session', () => {
    spec.given([Started]).when({ type: 'RecordResults', results: [pass('c-1'), pass('c-9')], recordedBy: user }).thenRefused('TEST_CASE_NOT_IN_SESSION');
    spec
      .given([Started, { type: 'TestSessionUpdated', payload: { sessionId: 's-1', testCaseIds: ['c-2'] } }])
      .when({ type: 'RecordResults', results: [pass('c-1')], recordedBy: user })
      .thenRefused('TEST_CASE_NOT_IN_SESSION');
    spec.given([Started, InProgress, Completed]).when({ type: 'RecordResults', results: [pass('c-1')], recordedBy: user }).thenRefused('SESSION_COMPLETED');
  });

  it('an import (a batch of commands) adds its cases to the session and records its results in one append; a completed session refuses it', () => {
    const results = [pass('c-1'), { ...pass('c-3'), status: 'failed' as const, notes: 'AssertionError: expected 1 to be 2' }, pass('c-4')];
    spec
      .given([Started])
      .whenBatch(importCommands({ results, recordedBy: user }))
      .then([
        { type: 'TestSessionUpdated', payload: { sessionId: 's-1', testCaseIds: ['c-1', 'c-2', 'c-3', 'c-4'], status: 'in_progress' } },
        { type: 'TestResultsRecorded', payload: { sessionId: 's-1', results, recordedBy: user, imported: true } },
      ]);
    spec
      .given([Started, InProgress])
      .whenBatch(importCommands({ results: [pass('c-2')], recordedBy: user }))
      .then([{ type: 'TestResultsRecorded', payload: { sessionId: 's-1', results: [pass('c-2')], recordedBy: user, imported: true } }]);
    spec.given([Started, InProgress, Completed]).whenBatch(importCommands({ results: [pass('c-1')], recordedBy: user })).thenRefused('SESSION_COMPLETED');
    spec.given([]).whenBatch(importCommands({ results: [pass('c-1')], recordedBy: user })).thenRefused('NOT_FOUND');
  });

  it('an import with start starts the session with its cases in the same append, in batches of 1,000 results per event', () => {
    const many = Array.from({ length: 1_001 }, (_, i) => pass(`c-${i}`));
    const start = { ...started, testCaseIds: many.map((r) => r.testCaseId) };
    spec
      .given([])
      .whenBatch(importCommands({ start, results: many, recordedBy: user }))
      .then([
        { type: 'TestSessionStarted', payload: start },
        InProgress,
        { type: 'TestResultsRecorded', payload: { sessionId: 's-1', results: many.slice(0, 1_000), recordedBy: user, imported: true } },
        { type: 'TestResultsRecorded', payload: { sessionId: 's-1', results: many.slice(1_000), recordedBy: user, imported: true } },
      ]);
    spec.given([Started]).whenBatch(importCommands({ start, results: many, recordedBy: user })).thenRefused('ALREADY_EXISTS');
  });

  it('an import with close completes the session in the same append, after its results; a planned session passes through in_progress', () => {
    const titled = { ...pass('c-1'), title: 'cart › adds', deviceSessionId: 'd-1' };
    spec
      .given([Started, InProgress])
      .whenBatch(importCommands({ results: [titled], recordedBy: user, close: true }))
      .then([{ type: 'TestResultsRecorded', payload: { sessionId: 's-1', results: [titled], recordedBy: user, imported: true } }, Completed]);
    spec
      .given([Started])
      .whenBatch(importCommands({ results: [pass('c-2')], recordedBy: user, close: true }))
      .then([InProgress, { type: 'TestResultsRecorded', payload: { sessionId: 's-1', results: [pass('c-2')], recordedBy: user, imported: true } }, Completed]);
    spec.given([Started, InProgress, Completed]).whenBatch(importCommands({ results: [pass('c-1')], recordedBy: user, close: true })).thenRefused('SESSION_COMPLETED');
  });
});
