import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import { INSTRUMENTATION_LINK_LOST, type InstrumentationEvent } from '#shared/wire/index.js';
import type { SessionPort } from '../core/session-port.js';
import { testRunDecider, type TestRunCommand } from './decide.js';
import { resolveStrategy, type TestId } from './plan.js';
import { RUN_ACTOR, ShardRunner, shardSessionOutcome, type ShardContext } from './shard.js';
import type { TestRunRecord } from './state.js';

// One shard's runner against the run's real decider (kept in memory) and a scripted session port: what
// the shard's end makes of its device session's outcome, and that the outcome is set before the end.

const T0 = Date.parse('2026-05-01T10:00:00.000Z');
const TESTS: TestId[] = [
  { className: 'com.acme.LoginTest', methodName: 't1' },
  { className: 'com.acme.LoginTest', methodName: 't2' },
];
const DEVICE = 'd-1';
const caller = { userId: 7, companyId: 1, workspaceId: 2 };
const session = { id: 's-1', hostId: 'h-1', deviceId: DEVICE, companyId: 1, workspaceId: 2 } as SessionRecord;
type Poll = { events: InstrumentationEvent[]; lastSeq: number; done: boolean; notRun: TestId[]; failure?: string };

/** A run of TESTS on one device, queued and planned; `hooks.onStart` may send the run commands when the device starts. */
function harness(poll: Poll, hooks: { onStart?: (send: (c: TestRunCommand) => void) => void } = {}) {
  let clock = 0;
  const now = () => new Date(T0 + ++clock * 1000).toISOString();
  let state: TestRunRecord = testRunDecider.initialState();
  const apply = (c: TestRunCommand): TestRunRecord | null => {
    try {
      for (const e of testRunDecider.decide(c, state)) state = testRunDecider.evolve(state, e);
      return state;
    } catch (err) {
      if (err instanceof AppError && err.code === 'INVALID_TRANSITION') return null;
      throw err;
    }
  };
  const strategy = resolveStrategy({ retries: 0 });
  apply({ type: 'Queue', runId: 'run-1', ...caller, projectId: null, name: 'nightly', appVersionId: 'a', testVersionId: 't', testPackage: 'com.acme.test', devices: { platform: 'android' }, filter: {}, strategy, tests: TESTS, skipped: [], rerunOf: null, now: now() });
  apply({ type: 'Plan', basis: 'uniform', shards: [{ deviceId: DEVICE, tests: TESTS.map((t) => ({ ...t, plannedMs: 1000, duplicate: false })) }] });
  const calls: string[] = [];
  const sessions = {
    create: async () => ({ id: session.id }),
    get: async () => session,
    isOpen: async () => true,
    update: async (s: SessionRecord, actor: { actor?: string | number }, change: { outcome: { outcome: string; reason: string | null } }) => {
      calls.push(`outcome ${change.outcome.outcome} (${change.outcome.reason}) on ${s.id} by ${actor.actor}`);
    },
    end: async (s: SessionRecord, reason: string) => {
      calls.push(`end ${s.id}: ${reason}`);
    },
    deviceContent: async (_s: SessionRecord, command: { op: string }) => {
      if (command.op === 'instrumentStart') {
        hooks.onStart?.((c) => apply(c));
        return { runId: 'agent-run-1' };
      }
      if (command.op === 'instrumentPoll') return poll;
      return { runId: 'agent-run-1', stopped: true };
    },
  } as unknown as SessionPort;
  const ctx: ShardContext = {
    runId: 'run-1',
    caller,
    name: 'nightly',
    instrumentation: { testPackage: 'com.acme.test', runner: 'androidx.test.runner.AndroidJUnitRunner', targetPackage: 'com.acme' },
    install: async () => undefined,
    load: async () => state,
    holder: {
      hold: async (id) => void calls.push(`hold ${id}`),
      letGo: (id) => void calls.push(`let go ${id}`),
    },
    send: async (command) => apply({ ...command, now: now() } as TestRunCommand),
    sendAll: async (commands) => {
      for (const command of commands) apply({ ...command, now: now() } as TestRunCommand);
      return state;
    },
  };
  return { run: () => new ShardRunner(sessions, ctx, DEVICE).run(), calls, state: () => state };
}

const started = (seq: number, t: TestId): InstrumentationEvent => ({ kind: 'started', seq, ...t, at: new Date(T0).toISOString() });
const finished = (seq: number, t: TestId, outcome: 'passed' | 'failed'): InstrumentationEvent => ({
  kind: 'finished',
  seq,
  ...t,
  at: new Date(T0).toISOString(),
  outcome,
  durationMs: 100,
  ...(outcome === 'failed' ? { message: 'expected 4 but was 5' } : {}),
  logcat: [],
});

describe("a shard's end judges its device session", () => {
  it('infrastructure-failed (the link to the device lost mid-test): outcome failed naming why, set before the session ends', async () => {
    const cut = `${INSTRUMENTATION_LINK_LOST} during t1(com.acme.LoginTest)`;
    const h = harness({ events: [started(1, TESTS[0]!)], lastSeq: 1, done: true, notRun: [], failure: cut });
    await h.run();
    expect(h.state().shards[DEVICE]).toMatchObject({ state: 'infrastructure-failed', sessionId: 's-1', endReason: `The device failed: DEVICE_UNREACHABLE: ${cut}` });
    expect(h.calls).toEqual(['hold s-1', `outcome failed (run shard: The device failed: DEVICE_UNREACHABLE: ${cut}) on s-1 by ${RUN_ACTOR}`, 'end s-1: test-run-finished', 'let go s-1']);
  });

  it('completed: outcome passed even though one of its tests failed (the app, not the device), set before the session ends', async () => {
    const h = harness({ events: [started(1, TESTS[0]!), finished(2, TESTS[0]!, 'passed'), started(3, TESTS[1]!), finished(4, TESTS[1]!, 'failed')], lastSeq: 4, done: true, notRun: [] });
    await h.run();
    expect(h.state().status).toBe('failed');
    expect(h.state().shards[DEVICE]!.state).toBe('completed');
    expect(h.calls).toEqual(['hold s-1', `outcome passed (run shard: completed) on s-1 by ${RUN_ACTOR}`, 'end s-1: test-run-finished', 'let go s-1']);
  });

  it('cancelled: no outcome, the session only ends', async () => {
    const h = harness({ events: [], lastSeq: 0, done: true, notRun: [] }, { onStart: (send) => send({ type: 'Cancel', reason: 'Cancelled by user 7', now: new Date(T0 + 60_000).toISOString() }) });
    await h.run();
    expect(h.state().shards[DEVICE]!.state).toBe('cancelled');
    expect(h.calls).toEqual(['hold s-1', 'end s-1: test-run-finished', 'let go s-1']);
  });

  it('says nothing of a live shard, and cuts a long reason to what an outcome may hold', () => {
    expect(shardSessionOutcome({ state: 'running', endReason: null })).toBeNull();
    expect(shardSessionOutcome(undefined)).toBeNull();
    expect(shardSessionOutcome({ state: 'infrastructure-failed', endReason: null })).toEqual({ outcome: 'failed', reason: 'run shard: its device failed' });
    expect(shardSessionOutcome({ state: 'infrastructure-failed', endReason: 'x'.repeat(3_000) })!.reason).toHaveLength(2_000);
  });
});
