import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { existingTestCaseIds } from '#projections/tmt-test-cases/index.js';
import { currentResults, findTestSession, type ResultView, type TestSessionView } from '#projections/tmt-test-sessions/index.js';
import { AppError, found } from '#shared/errors.js';
import type { Platform } from '../../platform.js';
import { projectOr404 } from '../projects/index.js';
import type { TmtDeps } from '../deps.js';
import { uuid, writeActor, type TmtScope, type TmtWriteScope } from '../http.js';
import { RESULT_STATUSES, type RecordedResult, type SessionStatus } from '#events/tmt/test-sessions.js';
import { aggregate } from '#shared/es/index.js';
import { commandContext } from '#shared/es/index.js';
import { cachedStates } from '#shared/es/index.js';
import { importCommands, testSessionDecider } from './decide.js';
import { testSessionStream } from '#events/tmt/test-sessions.js';

/** Sessions whose folded state is kept in memory (`cachedStates`). */
const CACHED_SESSIONS = 1_000;

/**
 * Sessions' commands, with the folded state of recently used sessions kept in memory: a session
 * collects many `TestResultsRecorded` events (each up to 1,000 results), so a command reads only the
 * events after the cached revision instead of the whole stream. CI writes to one session from many
 * workers at once (results, JUnit shards): the commands of one session run one after another in this
 * process, so they never conflict with each other. The append still carries the expected revision, so
 * a writer in another process is noticed as a conflict, read, and retried.
 */
function testSessionWrites(platform: Platform) {
  return aggregate(platform, {
    decider: testSessionDecider,
    stream: testSessionStream,
    readModels: ['tmt-test-sessions'],
    ...cachedStates(testSessionDecider, testSessionStream, CACHED_SESSIONS),
    oneAtATime: true,
  });
}

/** At most this many results in one request (or one call of `recordResults`). */
export const MAX_RESULTS_PER_BATCH = 1_000;

export const ResultInput = z.object({
  testCaseId: uuid,
  status: z.enum(RESULT_STATUSES),
  notes: z.string().max(10_000).nullable().optional(),
  durationMs: z.number().int().min(0).max(2_147_483_647).nullable().optional(),
  deviceSessionId: uuid
    .nullable()
    .optional()
    .describe("The device session that ran the test; its video becomes the result's attachment. An id that is not a device session of the company is recorded as none"),
});

export type ResultInput = z.input<typeof ResultInput>;

/**
 * One result or a list of 1 to 1,000: all valid or none recorded. The first invalid element is named
 * by its index, in the message and in `details`.
 */
export function parseResults(raw: unknown): RecordedResult[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (Array.isArray(raw) && (raw.length === 0 || raw.length > MAX_RESULTS_PER_BATCH)) {
    throw new AppError('VALIDATION_FAILED', `Send 1 to ${MAX_RESULTS_PER_BATCH} results, not ${raw.length}`, {
      details: [{ path: '', message: `between 1 and ${MAX_RESULTS_PER_BATCH} results` }],
    });
  }
  const out: RecordedResult[] = [];
  for (let i = 0; i < list.length; i++) {
    const parsed = ResultInput.safeParse(list[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.');
      const where = Array.isArray(raw) ? `results[${i}]` : 'result';
      throw new AppError('VALIDATION_FAILED', `${where}${field ? `.${field}` : ''}: ${issue.message}`, {
        details: parsed.error.issues.map((x) => ({ path: [...(Array.isArray(raw) ? [String(i)] : []), ...x.path.map(String)].join('.'), message: x.message })),
      });
    }
    const r = parsed.data;
    out.push({ testCaseId: r.testCaseId, status: r.status, notes: r.notes ?? null, durationMs: r.durationMs ?? null, ...(r.deviceSessionId ? { deviceSessionId: r.deviceSessionId.toLowerCase() } : {}) });
  }
  return out;
}

/** A session with the current result of each of its cases. */
export type TestSessionDetail = TestSessionView & { results: ResultView[] };

/** Sessions and their results: what the routes and other modules (the test engines) call. */
export class TestSessionService {
  private readonly writes: ReturnType<typeof testSessionWrites>;

  constructor(
    private readonly platform: Platform,
    private readonly deviceSessions: Pick<TmtDeps['deviceSessions'], 'ofCompany'>,
  ) {
    this.writes = testSessionWrites(platform);
  }

  /**
   * The results without any `deviceSessionId` that is not a device session of the company (unknown,
   * removed, another company's): such an id is recorded as none, so a result never points into
   * another tenant and its answers do not tell another company's session from no session.
   */
  async ownDeviceSessions(companyId: number, results: RecordedResult[]): Promise<RecordedResult[]> {
    const named = results.flatMap((r) => (r.deviceSessionId ? [r.deviceSessionId] : []));
    if (named.length === 0) return results;
    const own = await this.deviceSessions.ofCompany(companyId, named);
    return results.map(({ deviceSessionId, ...r }) => (deviceSessionId && own.has(deviceSessionId) ? { ...r, deviceSessionId } : r));
  }

  async sessionOr404(scope: TmtScope, sessionId: string): Promise<TestSessionView> {
    return found(uuid.safeParse(sessionId).success ? await findTestSession(this.platform.db, scope, sessionId) : null, 'Test session not found');
  }

  /** The session with its current results, or null (also for another tenant's id). */
  async get(scope: TmtScope, sessionId: string): Promise<TestSessionDetail | null> {
    if (!uuid.safeParse(sessionId).success) return null;
    const session = await findTestSession(this.platform.db, scope, sessionId);
    return session ? { ...session, results: await currentResults(this.platform.db, session) } : null;
  }

  /** 400 UNKNOWN_TEST_CASE naming the first id that is not a case of the project in the workspace. */
  private async requireCases(scope: TmtScope, projectId: string, ids: readonly string[]): Promise<void> {
    const found = await existingTestCaseIds(this.platform.db, scope, projectId, ids);
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing !== -1) {
      throw new AppError('UNKNOWN_TEST_CASE', `testCases[${missing}]: ${ids[missing]} is not a test case of this project`, {
        details: [{ path: `testCases.${missing}`, message: 'not a test case of this project' }],
      });
    }
  }

  async create(scope: TmtWriteScope, input: { name: string; projectId: string; testCases: string[] }): Promise<TestSessionDetail> {
    await projectOr404(this.platform, scope, input.projectId);
    const testCaseIds = [...new Set(input.testCases)];
    await this.requireCases(scope, input.projectId, testCaseIds);
    const sessionId = randomUUID();
    await this.writes.run(
      sessionId,
      { type: 'StartTestSession', sessionId, companyId: scope.companyId, workspaceId: scope.workspaceId, projectId: input.projectId, name: input.name, testCaseIds },
      commandContext(this.platform, writeActor(scope)),
    );
    return (await this.get(scope, sessionId))!;
  }

  async update(scope: TmtWriteScope, sessionId: string, input: { name?: string | undefined; testCases?: string[] | undefined; status?: SessionStatus | undefined }): Promise<TestSessionDetail> {
    const session = await this.sessionOr404(scope, sessionId);
    const testCaseIds = input.testCases ? [...new Set(input.testCases)] : undefined;
    if (testCaseIds) await this.requireCases(scope, session.projectId, testCaseIds);
    await this.writes.run(
      sessionId,
      { type: 'UpdateTestSession', ...(input.name !== undefined ? { name: input.name } : {}), ...(testCaseIds ? { testCaseIds } : {}), ...(input.status ? { status: input.status } : {}) },
      commandContext(this.platform, writeActor(scope)),
    );
    return (await this.get(scope, sessionId))!;
  }

  /** The session of the tenant, open for results: 404 for none (or another tenant's), 409 SESSION_COMPLETED. */
  async openSessionOr404(scope: TmtScope, sessionId: string): Promise<TestSessionView> {
    const session = await this.sessionOr404(scope, sessionId);
    if (session.status === 'completed') throw new AppError('SESSION_COMPLETED', 'The session is completed; no more results can be recorded');
    return session;
  }

  /**
   * Records an imported report's results (a JUnit file) in one batch of commands, one append: the cases not in
   * the session join it, each result replaces what an earlier report recorded for its case, with
   * `start` the session is started and with `close` completed by the same append. The results are
   * already valid (their cases are the project's); any number of them.
   */
  async importResults(
    scope: TmtWriteScope,
    target: { sessionId: string } | { start: { projectId: string; name: string } },
    results: RecordedResult[],
    options: { close?: boolean } = {},
  ): Promise<{ sessionId: string; status: SessionStatus }> {
    const sessionId = 'sessionId' in target ? target.sessionId : randomUUID();
    const start =
      'start' in target
        ? { sessionId, companyId: scope.companyId, workspaceId: scope.workspaceId, ...target.start, testCaseIds: [...new Set(results.map((r) => r.testCaseId))] }
        : undefined;
    const result = await this.writes.run(
      sessionId,
      importCommands({ ...(start ? { start } : {}), results, recordedBy: scope.actor, ...(options.close ? { close: true } : {}) }),
      commandContext(this.platform, writeActor(scope)),
    );
    return { sessionId, status: result.state.status };
  }

  /**
   * Records one batch of results (1 to 1,000) in one event: all or none. 404 for a session that is
   * not the tenant's, 400 for an invalid element or a case not in the session, 409 SESSION_COMPLETED.
   * Callers that are not users (test engines) pass `{engineId}` as the actor.
   */
  async recordResults(scope: TmtWriteScope, sessionId: string, raw: unknown): Promise<{ recorded: number; position: bigint; status: SessionStatus }> {
    await this.sessionOr404(scope, sessionId);
    const results = await this.ownDeviceSessions(scope.companyId, parseResults(raw));
    const result = await this.writes.run(sessionId, { type: 'RecordResults', results, recordedBy: scope.actor }, commandContext(this.platform, writeActor(scope)));
    return { recorded: results.length, position: result.position ?? 0n, status: result.state.status };
  }
}
