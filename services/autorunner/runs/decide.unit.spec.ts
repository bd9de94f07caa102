import { describe, expect, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { runDecider } from './decide.js';
import type { RunEvent } from '#events/autorunner/runs.js';

const spec = deciderSpec(runDecider);
const runId = 'r-1';
const started = { runId, engineId: 'e-1', testSessionId: 's-1', name: 'nightly', externalId: 'ci-42', metadata: { commit: 'abc' }, companyId: 1, workspaceId: 2 };
const startedEvent: RunEvent = { type: 'RunStarted', payload: started };
const results = [{ testCaseId: 'tc-1', status: 'passed' as const, notes: null, durationMs: 120 }];
const reportedEvent: RunEvent = { type: 'RunResultsReported', payload: { runId, results, recorded: 1 } };
const completedEvent: RunEvent = { type: 'RunCompleted', payload: { runId, status: 'passed' } };

describe('run decider', () => {
  it('given nothing, when a run starts, then it started (running)', () => {
    spec.given([]).when({ type: 'StartRun', ...started }).then([startedEvent]);
    expect([startedEvent].reduce(runDecider.evolve, runDecider.initialState()).status).toBe('running');
  });
  it('given a run, when it starts again, then it is refused', () => {
    spec.given([startedEvent]).when({ type: 'StartRun', ...started }).thenRefused('ALREADY_EXISTS');
  });
  it('given a running run, when results are reported (any number of times), then they are recorded', () => {
    spec.given([startedEvent]).when({ type: 'ReportRunResults', runId, results, recorded: 1 }).then([reportedEvent]);
    spec.given([startedEvent, reportedEvent]).when({ type: 'ReportRunResults', runId, results, recorded: 1 }).then([reportedEvent]);
  });
  it('given a running run, when it completes, then it completed with that status', () => {
    spec.given([startedEvent, reportedEvent]).when({ type: 'CompleteRun', runId, status: 'passed' }).then([completedEvent]);
  });
  it('given a completed run, when it completes with the same status, then nothing changes', () => {
    spec.given([startedEvent, completedEvent]).when({ type: 'CompleteRun', runId, status: 'passed' }).then([]);
  });
  it('given a completed run, when it completes with another status or results arrive, then it is refused', () => {
    spec.given([startedEvent, completedEvent]).when({ type: 'CompleteRun', runId, status: 'failed' }).thenRefused('RUN_NOT_RUNNING');
    spec.given([startedEvent, completedEvent]).when({ type: 'ReportRunResults', runId, results, recorded: 1 }).thenRefused('RUN_NOT_RUNNING');
  });
  it('given no run, when results arrive or it completes, then it is not found', () => {
    spec.given([]).when({ type: 'ReportRunResults', runId, results, recorded: 1 }).thenRefused('NOT_FOUND');
    spec.given([]).when({ type: 'CompleteRun', runId, status: 'error' }).thenRefused('NOT_FOUND');
  });
  it('given a running run, when an empty batch of results is reported, then the payload schema refuses it', () => {
    expect(() => runDecider.decide({ type: 'ReportRunResults', runId, results: [], recorded: 0 }, [startedEvent].reduce(runDecider.evolve, runDecider.initialState()))).toThrow();
  });
});
