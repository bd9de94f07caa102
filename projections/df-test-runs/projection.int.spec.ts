import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestRunEvent } from '#events/df/test-runs.js';
import { projectionSpec, SPEC_TIME, type GivenEvent, type ProjectionSpec } from '../testing.js';
import { dfTestRunsProjection } from './projection.js';
import { getTestRun, listTestRuns, testHistoryRows, testRunAttempts } from './queries.js';

const scope = { companyId: 1, workspaceId: 2 };
const paging = { page: 0, size: 20, sortDir: 'desc' as const };
const strategy = { sharding: 'duration' as const, batchSize: 20, retries: 1, flakyThreshold: null, testTimeoutSeconds: 600, runTimeoutSeconds: 3600, failFast: false, clearPackageData: false };
const T = (m: string) => ({ className: 'com.acme.LoginTest', methodName: m });

let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfTestRunsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

const on = (runId: string, ...events: TestRunEvent[]): GivenEvent[] => events.map((e) => ({ ...e, streamId: `test-run-${runId}` }));
const queued = (runId: string, o: { queuedAt?: string; workspaceId?: number; testPackage?: string; tests?: string[]; skipped?: string[] } = {}): TestRunEvent => ({
  type: 'TestRunQueued',
  payload: {
    runId, companyId: 1, workspaceId: o.workspaceId ?? 2, userId: 7, projectId: null, name: `run ${runId}`, appVersionId: 'app-1', testVersionId: 'test-1',
    testPackage: o.testPackage ?? 'com.acme.test', devices: { platform: 'android' }, filter: {}, strategy,
    tests: (o.tests ?? ['a', 'b', 'c']).map(T), skipped: (o.skipped ?? []).map(T), rerunOf: null, queuedAt: o.queuedAt ?? '2026-02-01T10:00:00.000Z',
  },
});
const planned = (runId: string, shards: Record<string, string[]>): TestRunEvent => ({
  type: 'TestRunPlanned',
  payload: { runId, basis: 'duration', shards: Object.entries(shards).map(([deviceId, tests]) => ({ deviceId, tests: tests.map((m) => ({ ...T(m), plannedMs: 1000, duplicate: false })) })) },
});
const finished = (runId: string, deviceId: string, m: string, attempt: number, outcome: 'passed' | 'failed' | 'flaky' | 'errored', durationMs = 1000): TestRunEvent => ({
  type: 'TestFinished',
  payload: { runId, deviceId, ...T(m), attempt, outcome, durationMs, message: outcome === 'passed' ? null : 'boom', stack: null, artifacts: [{ name: 'logcat', fileId: 'f-1' }], logcat: [`I TestRunner: started: ${m}`] },
});
const ended = (runId: string, state: 'passed' | 'failed' | 'error' | 'cancelled', endedAt = '2026-02-01T11:00:00.000Z'): TestRunEvent => ({
  type: 'TestRunFinished',
  payload: { runId, state, reason: null, counts: { total: 3, passed: 3, failed: 0, flaky: 0, skipped: 0, notRun: 0 }, endedAt },
});

describe('df-test-runs read model', () => {
  it('given a queued run, shows it in its company and workspace only, its ignored tests skipped', async () => {
    await spec.given(...on('r-1', queued('r-1', { skipped: ['old'] })));
    expect(await getTestRun(spec.db, scope, 'r-1')).toMatchObject({
      id: 'r-1', state: 'queued', total: 4, basis: null, userId: 7, testPackage: 'com.acme.test', shards: [], testSessionId: null,
      counts: { total: 4, passed: 0, failed: 0, flaky: 0, skipped: 1, notRun: 3 },
    });
    expect(await getTestRun(spec.db, { companyId: 1, workspaceId: 3 }, 'r-1')).toBeNull();
    expect(await getTestRun(spec.db, { companyId: 9, workspaceId: 2 }, 'r-1')).toBeNull();
    expect(await testRunAttempts(spec.db, { companyId: 9, workspaceId: 2 }, 'r-1')).toBeNull();
    expect(await testRunAttempts(spec.db, scope, 'r-1')).toEqual([
      { ...T('old'), deviceId: null, attempt: 1, outcome: 'skipped', durationMs: 0, message: 'Ignored', stack: null, artifacts: [], logcat: [], finishedAt: SPEC_TIME },
    ]);
  });

  it('given its life, keeps the shards (tests moved, the test running) and one row per attempt, with live counts', async () => {
    await spec.given(
      ...on('r-1',
        queued('r-1'),
        planned('r-1', { 'd-1': ['a', 'b'], 'd-2': ['c'] }),
        { type: 'TestRunShardStarted', payload: { runId: 'r-1', deviceId: 'd-1', sessionId: 's-1', startedAt: '2026-02-01T10:01:00.000Z' } },
        { type: 'TestRunShardStarted', payload: { runId: 'r-1', deviceId: 'd-2', sessionId: 's-2', startedAt: '2026-02-01T10:02:00.000Z' } },
        { type: 'TestStarted', payload: { runId: 'r-1', deviceId: 'd-1', ...T('a'), attempt: 1, startedAt: '2026-02-01T10:01:00.000Z' } },
        finished('r-1', 'd-1', 'a', 1, 'failed'),
        { type: 'TestRetryScheduled', payload: { runId: 'r-1', ...T('a'), attempt: 2, failedOn: 'd-1', deviceId: 'd-2' } },
        { type: 'TestStarted', payload: { runId: 'r-1', deviceId: 'd-2', ...T('c'), attempt: 1, startedAt: '2026-02-01T10:02:00.000Z' } },
        { type: 'TestRunShardEnded', payload: { runId: 'r-1', deviceId: 'd-1', state: 'infrastructure-failed', reason: 'host lost', endedAt: '2026-02-01T10:03:00.000Z' } },
        { type: 'TestsReplanned', payload: { runId: 'r-1', fromDeviceId: 'd-1', reason: 'host lost', shards: [{ deviceId: 'd-2', tests: [{ ...T('b'), plannedMs: 1000, duplicate: false }] }] } },
      ),
    );
    const run = await getTestRun(spec.db, scope, 'r-1');
    expect(run).toMatchObject({ state: 'running', basis: 'duration', startedAt: '2026-02-01T10:01:00.000Z', endedAt: null, counts: { total: 3, failed: 1, notRun: 2 } });
    expect(run?.shards).toEqual([
      { deviceId: 'd-1', state: 'infrastructure-failed', tests: 1, currentTest: null, startedAt: '2026-02-01T10:01:00.000Z', endedAt: '2026-02-01T10:03:00.000Z', reason: 'host lost', sessionId: 's-1' },
      { deviceId: 'd-2', state: 'running', tests: 3, currentTest: 'com.acme.LoginTest#c', startedAt: '2026-02-01T10:02:00.000Z', endedAt: null, reason: null, sessionId: 's-2' },
    ]);
    await spec.given(...on('r-1', finished('r-1', 'd-2', 'c', 1, 'passed'), finished('r-1', 'd-2', 'a', 2, 'flaky'), finished('r-1', 'd-2', 'b', 1, 'passed')));
    expect((await getTestRun(spec.db, scope, 'r-1'))?.counts).toEqual({ total: 3, passed: 2, failed: 0, flaky: 1, skipped: 0, notRun: 0 });
    expect((await testRunAttempts(spec.db, scope, 'r-1'))?.map((r) => [r.methodName, r.attempt, r.deviceId, r.outcome])).toEqual([
      ['a', 1, 'd-1', 'failed'], ['a', 2, 'd-2', 'flaky'], ['b', 1, 'd-2', 'passed'], ['c', 1, 'd-2', 'passed'],
    ]);
    await spec.given(...on('r-1', ended('r-1', 'passed')));
    expect(await getTestRun(spec.db, scope, 'r-1')).toMatchObject({ state: 'passed', endedAt: '2026-02-01T11:00:00.000Z', counts: { total: 3, passed: 3 }, testSessionId: null });
    await spec.given(...on('r-1', { type: 'TestRunResultsFiled', payload: { runId: 'r-1', testSessionId: 'ts-1', reason: null } }));
    expect(await getTestRun(spec.db, scope, 'r-1')).toMatchObject({ testSessionId: 'ts-1', resultsReason: null });
  });

  it('counts a shard’s tests once when its events are applied again', async () => {
    const recorded = await spec.given(
      ...on('r-1',
        queued('r-1'),
        planned('r-1', { 'd-1': ['a', 'b'], 'd-2': ['c'] }),
        finished('r-1', 'd-1', 'a', 1, 'failed'),
        { type: 'TestRetryScheduled', payload: { runId: 'r-1', ...T('a'), attempt: 2, failedOn: 'd-1', deviceId: 'd-2' } },
      ),
    );
    await spec.replay(recorded);
    expect((await getTestRun(spec.db, scope, 'r-1'))?.shards.map((s) => s.tests)).toEqual([2, 2]);
    expect(await testRunAttempts(spec.db, scope, 'r-1')).toHaveLength(1);
  });

  it('lists the workspace’s runs by state and queue time, newest first, paged', async () => {
    await spec.given(
      ...on('r-1', queued('r-1', { queuedAt: '2026-02-01T10:00:00.000Z' })),
      ...on('r-2', queued('r-2', { queuedAt: '2026-02-02T10:00:00.000Z' }), ended('r-2', 'failed')),
      ...on('r-3', queued('r-3', { queuedAt: '2026-02-03T10:00:00.000Z', workspaceId: 3 })),
    );
    const ids = async (filters: Parameters<typeof listTestRuns>[2], p: Partial<typeof paging> = {}) => (await listTestRuns(spec.db, scope, filters, { ...paging, ...p })).content.map((r) => r.id);
    expect(await ids({})).toEqual(['r-2', 'r-1']);
    expect(await ids({}, { sortDir: 'asc' as never })).toEqual(['r-1', 'r-2']);
    expect(await ids({ state: ['failed'] })).toEqual(['r-2']);
    expect(await ids({ from: new Date('2026-02-02T00:00:00.000Z') })).toEqual(['r-2']);
    expect(await ids({ to: new Date('2026-02-02T00:00:00.000Z') })).toEqual(['r-1']);
    const page = await listTestRuns(spec.db, scope, {}, { page: 1, size: 1, sortDir: 'desc' });
    expect(page).toMatchObject({ page: 1, size: 1, totalElements: 2, totalPages: 2 });
    expect(page.content[0]).toMatchObject({ id: 'r-1', counts: null, total: 3 });
    expect((await listTestRuns(spec.db, scope, { state: ['failed'] }, paging)).content[0]?.counts).toEqual({ total: 3, passed: 3, failed: 0, flaky: 0, skipped: 0, notRun: 0 });
  });

  it('reads a test’s history from ended runs of the same package in the same workspace only', async () => {
    await spec.given(
      ...on('h-1', queued('h-1'), finished('h-1', 'd-1', 'a', 1, 'passed', 1000), finished('h-1', 'd-1', 'b', 1, 'failed', 9000), finished('h-1', 'd-2', 'b', 2, 'flaky', 3000), ended('h-1', 'passed')),
      ...on('h-2', queued('h-2'), finished('h-2', 'd-1', 'a', 1, 'passed', 2000), finished('h-2', 'd-1', 'c', 1, 'failed', 500), ended('h-2', 'failed', '2026-02-01T09:00:00.000Z')),
      // Not counted: still running, another package, another workspace.
      ...on('h-3', queued('h-3'), finished('h-3', 'd-1', 'a', 1, 'passed', 60_000)),
      ...on('h-4', queued('h-4', { testPackage: 'com.other.test' }), finished('h-4', 'd-1', 'a', 1, 'passed', 60_000), ended('h-4', 'passed')),
      ...on('h-5', queued('h-5', { workspaceId: 3 }), finished('h-5', 'd-1', 'a', 1, 'passed', 60_000), ended('h-5', 'passed')),
    );
    expect(await testHistoryRows(spec.db, scope, 'com.acme.test')).toEqual([
      { ...T('a'), meanMs: 1500, attempts: 2, passes: 2 },
      { ...T('b'), meanMs: 3000, attempts: 2, passes: 1 },
      { ...T('c'), meanMs: 500, attempts: 1, passes: 0 },
    ]);
    // Only the latest run.
    expect((await testHistoryRows(spec.db, scope, 'com.acme.test', 1)).map((r) => [r.methodName, r.meanMs])).toEqual([['a', 1000], ['b', 3000]]);
  });
});
