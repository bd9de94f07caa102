import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { AppError } from '#shared/errors.js';
import { INSTRUMENTATION_LINK_LOST, type RpcResult } from '#shared/wire/index.js';
import type { Caller } from '../http.js';
import type { SessionPort } from '../core/session-port.js';
import type { TestRunCommand } from './decide.js';
import { isFinished, isLive, nextBatch, type ShardRecord, type TestRunRecord } from './state.js';

/** How often a shard whose queue is empty looks for retries and moved tests; the least time between two polls that brought nothing. */
export const POLL_MS = 250;
/** How long one poll of the device waits for news of its tests (a long poll: news is answered as it comes). */
const LONG_POLL_MS = 1_000;
/** How long the agent has to answer one poll or start. */
const COMMAND_TIMEOUT_MS = 30_000;
/** The name the platform acts under in a run's events and its sessions' ends. */
export const RUN_ACTOR = 'test-run';

type InstrumentationEvent = RpcResult<'instrumentPoll'>['events'][number];
type Command = TestRunCommand extends infer C ? (C extends { now: string } ? Omit<C, 'now'> : C) : never;

/** What a shard asks of the run around it. */
export interface ShardContext {
  runId: string;
  caller: Caller;
  name: string;
  instrumentation: { testPackage: string; runner: string; targetPackage: string };
  /** Builds to install on the device before the first test, in order (the app, then its test APK). */
  install(session: SessionRecord): Promise<void>;
  /** The run as its stream says now. */
  load(): Promise<TestRunRecord>;
  /** Vouches for the shard's session to the busy-device watchdog while the shard runs here (`ShardHolders`). */
  holder: { hold(sessionId: string): Promise<void>; letGo(sessionId: string): void };
  /** Sends a command to the run; a refusal of a late report (the test moved, the run ended) is answered null. */
  send(command: Command): Promise<TestRunRecord | null>;
  /**
   * Sends commands in their order without waiting between them (they may share one append with other
   * devices' reports); answers the run's state after them. Late reports the run refuses change nothing.
   */
  sendAll(commands: Command[]): Promise<TestRunRecord>;
}

const AGENT_OUTCOME = {
  passed: { outcome: 'passed' },
  failed: { outcome: 'failed' },
  errored: { outcome: 'errored' },
  ignored: { outcome: 'skipped' },
  assumption: { outcome: 'skipped' },
  timedOut: { outcome: 'failed', aborted: 'hang' },
  crashed: { outcome: 'failed', aborted: 'crash' },
} as const;

/** The most of a test's device log a run keeps: its last lines, each cut. */
const LOGCAT_LINES = 200;
const LOGCAT_LINE_CHARS = 500;

/** The decider's FinishTest for a `finished` report of the agent: a time-out is a hang, a crash a crash. */
export function finishCommand(deviceId: string, e: Extract<InstrumentationEvent, { kind: 'finished' }>, artifacts: { name: string; fileId: string; url: string }[] = []): Command {
  const mapped = AGENT_OUTCOME[e.outcome];
  return {
    type: 'FinishTest',
    deviceId,
    className: e.className,
    methodName: e.methodName,
    outcome: mapped.outcome,
    durationMs: Math.round(e.durationMs),
    message: e.message?.slice(0, 10_000) ?? null,
    stack: e.stack?.slice(0, 100_000) ?? null,
    artifacts,
    logcat: e.logcat.slice(-LOGCAT_LINES).map((line) => line.slice(0, LOGCAT_LINE_CHARS)),
    ...('aborted' in mapped ? { aborted: mapped.aborted } : {}),
  };
}

/**
 * What a shard's end says of the device session it ran in (docs/modules/device-health.md, "Failed
 * sessions in a row"): a shard whose device or host failed (`infrastructure-failed`) failed; one that
 * completed passed, whatever its tests did (a failing test is the app's fault, not the device's); a
 * cancelled or live shard says nothing.
 */
export function shardSessionOutcome(shard: Pick<ShardRecord, 'state' | 'endReason'> | undefined): { outcome: 'passed' | 'failed'; reason: string } | null {
  if (shard?.state === 'completed') return { outcome: 'passed', reason: 'run shard: completed' };
  if (shard?.state === 'infrastructure-failed') return { outcome: 'failed', reason: `run shard: ${shard.endReason ?? 'its device failed'}`.slice(0, 2_000) };
  return null;
}

/**
 * Sets the outcome a shard's end gives its device session, as `PUT /df/api/sessions/{id}/outcome` does
 * (the same outcome again changes nothing); nothing for a shard whose end says nothing.
 */
export async function judgeShardSession(sessions: SessionPort, session: SessionRecord, shard: Pick<ShardRecord, 'state' | 'endReason'> | undefined): Promise<void> {
  const outcome = shardSessionOutcome(shard);
  if (outcome) await sessions.update(session, { actor: RUN_ACTOR, companyId: session.companyId, workspaceId: session.workspaceId }, { outcome });
}

const shardLive = (s: TestRunRecord, deviceId: string) => !isFinished(s) && Boolean(s.shards[deviceId] && isLive(s.shards[deviceId]));

/**
 * One device's part of a run, from its session's opening to its end: the session is opened through
 * the sessions' admission (bookings, quota, tenancy), the builds installed, then batch after batch of
 * the shard's queue launched and followed until the run ends; a device whose queue is empty waits for
 * retries and moved tests. A device taken meanwhile or a session ended under the shard ends the shard
 * `infrastructure-failed`, and the decider moves its tests to the other devices.
 */
export class ShardRunner {
  private session: SessionRecord | null = null;

  constructor(
    private readonly sessions: SessionPort,
    private readonly ctx: ShardContext,
    readonly deviceId: string,
  ) {}

  async run(): Promise<void> {
    try {
      const created = await this.sessions.create(this.ctx.caller, { deviceId: this.deviceId, type: 'automation', name: `Test run ${this.ctx.name}`.slice(0, 200), record: false });
      this.session = await this.sessions.get(this.ctx.caller, created.id);
    } catch (err) {
      await this.lost(`The device could not be taken: ${messageOf(err)}`);
      return;
    }
    try {
      await this.ctx.holder.hold(this.session.id);
      await this.ctx.send({ type: 'StartShard', deviceId: this.deviceId, sessionId: this.session.id });
      await this.ctx.install(this.session);
      await this.work(this.session);
    } catch (err) {
      await this.lost(`${(await this.sessions.isOpen(this.session.id).catch(() => false)) ? 'The device failed' : 'The session ended'}: ${messageOf(err)}`);
    } finally {
      // The shard's end judges its session before the session ends: the device's failed sessions in a
      // row are counted as the session closes, so the outcome must be there by then.
      const session = this.session;
      await this.ctx
        .load()
        .then((state) => judgeShardSession(this.sessions, session, state.shards[this.deviceId]))
        .catch(() => undefined);
      await this.sessions.end(this.session, 'test-run-finished', RUN_ACTOR).catch(() => undefined);
      this.ctx.holder.letGo(this.session.id);
    }
  }

  private async lost(reason: string): Promise<void> {
    await this.ctx.send({ type: 'EndShard', deviceId: this.deviceId, state: 'infrastructure-failed', reason: reason.slice(0, 1_000) });
  }

  private async work(session: SessionRecord): Promise<void> {
    for (;;) {
      const state = await this.ctx.load();
      if (!shardLive(state, this.deviceId)) return;
      const batch = nextBatch(state, this.deviceId);
      if (batch.length === 0) {
        if (!(await this.sessions.isOpen(session.id))) throw new AppError('SESSION_NOT_ACTIVE', 'the session is no longer active');
        await sleep(POLL_MS);
        continue;
      }
      const tests = batch.map((k) => ({ className: state.tests[k]!.className, methodName: state.tests[k]!.methodName }));
      const started = await this.sessions.deviceContent(
        session,
        { op: 'instrumentStart', ...this.ctx.instrumentation, tests, testTimeoutMs: Math.min(3_600_000, state.strategy.testTimeoutSeconds * 1000), clearPackageData: state.strategy.clearPackageData },
        COMMAND_TIMEOUT_MS,
      );
      if (!(await this.follow(session, started.runId))) return;
    }
  }

  /** Follows one launch to its end; answers whether the shard goes on. */
  private async follow(session: SessionRecord, agentRunId: string): Promise<boolean> {
    let afterSeq = 0;
    let anyStarted = false;
    for (;;) {
      const asked = Date.now();
      const poll = await this.sessions.deviceContent(session, { op: 'instrumentPoll', runId: agentRunId, afterSeq, waitMs: LONG_POLL_MS }, COMMAND_TIMEOUT_MS);
      let state: TestRunRecord | null = null;
      if (poll.events.length > 0) {
        anyStarted ||= poll.events.some((e) => e.kind === 'started');
        const commands: Command[] = [];
        for (const e of poll.events) {
          commands.push(e.kind === 'started' ? { type: 'StartTest', deviceId: this.deviceId, className: e.className, methodName: e.methodName } : finishCommand(this.deviceId, e, await this.evidence(session, e)));
        }
        state = await this.ctx.sendAll(commands);
      }
      afterSeq = poll.lastSeq;
      if (poll.done) {
        if (!anyStarted && poll.failure?.startsWith('The instrumentation could not start')) {
          await this.ctx.send({ type: 'Fail', reason: `RUNNER_NOT_FOUND: ${poll.failure}`.slice(0, 1_000) });
          return false;
        }
        // The device went away mid-test: the shard ends infrastructure-failed and its tests, the one
        // going on included, move to the other devices.
        if (poll.failure?.startsWith(INSTRUMENTATION_LINK_LOST)) throw new AppError('DEVICE_UNREACHABLE', poll.failure);
        return true;
      }
      state ??= await this.ctx.load();
      if (!shardLive(state, this.deviceId)) {
        await this.sessions.deviceContent(session, { op: 'instrumentStop', runId: agentRunId }, COMMAND_TIMEOUT_MS).catch(() => undefined);
        return false;
      }
      // Nothing new at once: an agent that does not wait (an older one) is not asked again at once.
      if (poll.events.length === 0 && Date.now() - asked < POLL_MS) await sleep(POLL_MS - (Date.now() - asked));
    }
  }

  /** A failed test's screenshot kept as an artifact of the shard's session; none when the agent took none or it could not be kept. */
  private async evidence(session: SessionRecord, e: Extract<InstrumentationEvent, { kind: 'finished' }>): Promise<{ name: string; fileId: string; url: string }[]> {
    if (!e.screenshot) return [];
    const artifactId = randomUUID();
    const name = `failure-${e.className.split('.').at(-1)}-${e.methodName}.png`.replace(/[^\w.$-]/g, '_').slice(0, 200);
    try {
      await this.sessions.storeArtifact(session, { actor: RUN_ACTOR, companyId: session.companyId, workspaceId: session.workspaceId }, { artifactId, type: 'screenshot', name, contentType: 'image/png', data: Buffer.from(e.screenshot, 'base64') });
    } catch {
      return [];
    }
    return [{ name, fileId: artifactId, url: `/df/api/sessions/${session.id}/artifacts/${artifactId}/download` }];
  }
}

const messageOf = (err: unknown) => (err instanceof AppError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err));
