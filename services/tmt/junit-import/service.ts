import { randomUUID } from 'node:crypto';
import { testCaseIdsByTitle } from '#projections/tmt-test-cases/index.js';
import { commandContext, handleCommand } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { RecordedResult, ResultStatus, SessionStatus } from '#events/tmt/test-sessions.js';
import { testCaseStream } from '#events/tmt/test-cases.js';
import type { Platform } from '../../platform.js';
import { projectOr404 } from '../projects/index.js';
import { testCaseDecider } from '../test-cases/index.js';
import type { TestSessionService } from '../test-sessions/index.js';
import { writeActor, type TmtWriteScope } from '../http.js';
import { parseJunit, type JunitCase, type JunitOutcome } from './parse.js';

/** What happened to one `<testcase>`: the test case it was recorded on, and how. */
export interface JunitResult {
  classname: string;
  name: string;
  /** The test's name as the platform knows it (`junitTitle`): the title of its test case. */
  title: string;
  testCaseId: string;
  /** `matched`: the project had the case before this import; `created`: this import created it. */
  testCase: 'matched' | 'created';
  status: JunitOutcome;
  /** The result's status in the session (an `error` is recorded as `failed`). */
  recordedStatus: ResultStatus;
  durationMs: number | null;
  /** The device session that ran the test, as the report names it, when it is one of the company's. */
  deviceSessionId: string | null;
}

/** The answer of an import; the counts are of `<testcase>` elements. */
export interface JunitImport {
  testSessionId: string;
  /** The session's status after the import (`completed` with `close`). */
  sessionStatus: SessionStatus;
  matched: number;
  created: number;
  skipped: number;
  results: JunitResult[];
}

const TITLE_MAX = 500;
/** How an import is recorded: `close` completes the session by the same append. */
export interface ImportOptions {
  close?: boolean;
}

/** Test cases created at once while an import creates the ones its project lacks. */
const CREATE_CONCURRENCY = 8;
const RECORDED: Record<JunitOutcome, ResultStatus> = { passed: 'passed', failed: 'failed', error: 'failed', skipped: 'skipped' };

/**
 * The title a `<testcase>` is matched by and created with: `<classname> › <name>` (the name alone
 * when the classname is empty or the same), cut to the 500 characters a title may hold.
 */
export function junitTitle(c: Pick<JunitCase, 'classname' | 'name'>): string {
  const full = c.classname && c.classname !== c.name ? `${c.classname} › ${c.name}` : c.name;
  return full.slice(0, TITLE_MAX).trim();
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * JUnit XML reports imported as a test session's results: every `<testcase>` is matched to the
 * project's test case with its title (`junitTitle`), the missing ones are created, and the results
 * are recorded by one command of the session (`TestSessionService.importResults`).
 */
export class JunitImportService {
  constructor(
    private readonly platform: Platform,
    private readonly sessions: TestSessionService,
  ) {}

  /** Into an existing session: 404 for another tenant's, 409 for a completed one, 400 for a bad report; nothing changes on a refusal. */
  async intoSession(scope: TmtWriteScope, sessionId: string, xml: string, options: ImportOptions = {}): Promise<JunitImport> {
    const session = await this.sessions.openSessionOr404(scope, sessionId);
    const cases = parseJunit(xml);
    const resolved = await this.resolve(scope, session.projectId, cases);
    const { status } = await this.sessions.importResults(scope, { sessionId }, resolved.recorded, options);
    return this.answer(sessionId, status, cases, resolved);
  }

  /**
   * Into the project: a new session started by the import (named `name`), or with `testSessionId` an
   * open session of the project (a CI shard of a run). 404 for another tenant's project or session,
   * and for a session of another project.
   */
  async intoProject(scope: TmtWriteScope, projectId: string, xml: string, target: { name?: string | undefined; testSessionId?: string | undefined }, options: ImportOptions = {}): Promise<JunitImport> {
    await projectOr404(this.platform, scope, projectId);
    if (target.testSessionId !== undefined) {
      const session = await this.sessions.sessionOr404(scope, target.testSessionId);
      if (session.projectId !== projectId) throw new AppError('NOT_FOUND', 'Test session not found in this project');
      return this.intoSession(scope, session.id, xml, options);
    }
    const cases = parseJunit(xml);
    const resolved = await this.resolve(scope, projectId, cases);
    const start = { projectId, name: target.name ?? `JUnit import ${this.platform.now().toISOString()}` };
    const { sessionId, status } = await this.sessions.importResults(scope, { start }, resolved.recorded, options);
    return this.answer(sessionId, status, cases, resolved);
  }

  /**
   * Results another module has as cases rather than as XML (a device test run's attempts): into a new
   * session of the project named `name`, matched and created as an import does. 404 for a project
   * that is not the tenant's.
   */
  async casesIntoProject(scope: TmtWriteScope, projectId: string, cases: JunitCase[], name: string, options: ImportOptions = {}): Promise<JunitImport> {
    await projectOr404(this.platform, scope, projectId);
    const resolved = await this.resolve(scope, projectId, cases);
    const { sessionId, status } = await this.sessions.importResults(scope, { start: { projectId, name } }, resolved.recorded, options);
    return this.answer(sessionId, status, cases, resolved);
  }

  /** The test case of every `<testcase>`, creating the project's missing ones; and the results to record. */
  private async resolve(scope: TmtWriteScope, projectId: string, cases: JunitCase[]) {
    const titles = cases.map(junitTitle);
    const existing = await testCaseIdsByTitle(this.platform.db, scope, projectId, [...new Set(titles)]);
    const missing = [...new Set(titles.filter((t) => !existing.has(t)))];
    const createdIds = new Map<string, string>();
    let last: bigint | null = null;
    await eachLimited(missing, CREATE_CONCURRENCY, async (title) => {
      const testCaseId = randomUUID();
      const c = cases[titles.indexOf(title)]!;
      const { position } = await handleCommand({
        store: this.platform.store,
        streamId: testCaseStream(testCaseId),
        decider: testCaseDecider,
        command: {
          type: 'CreateTestCase',
          testCaseId,
          companyId: scope.companyId,
          workspaceId: scope.workspaceId,
          projectId,
          title,
          description: `Created by a JUnit import: classname "${c.classname}", name "${c.name}".`,
          priority: 'medium',
          status: 'ready',
          steps: [],
        },
        context: commandContext(this.platform, writeActor(scope)),
      });
      createdIds.set(title, testCaseId);
      if (position !== null && (last === null || position > last)) last = position;
    });
    // A second import (or a read) right after this one sees the cases it created.
    if (last !== null) await this.platform.readModels.waitFor(last, { names: ['tmt-test-cases'] });
    // A device session the report names that is not one of the company's is recorded as none.
    const recorded: RecordedResult[] = await this.sessions.ownDeviceSessions(
      scope.companyId,
      cases.map((c, i) => ({
        testCaseId: existing.get(titles[i]!) ?? createdIds.get(titles[i]!)!,
        status: RECORDED[c.outcome],
        notes: c.details,
        durationMs: c.durationMs,
        title: titles[i]!,
        ...(c.deviceSessionId ? { deviceSessionId: c.deviceSessionId } : {}),
      })),
    );
    return { recorded, createdIds };
  }

  private answer(testSessionId: string, sessionStatus: SessionStatus, cases: JunitCase[], resolved: { recorded: RecordedResult[]; createdIds: Map<string, string> }): JunitImport {
    const created = new Set(resolved.createdIds.values());
    const results = cases.map((c, i): JunitResult => {
      const r = resolved.recorded[i]!;
      return {
        classname: c.classname,
        name: c.name,
        title: r.title!,
        testCaseId: r.testCaseId,
        testCase: created.has(r.testCaseId) ? 'created' : 'matched',
        status: c.outcome,
        recordedStatus: r.status,
        durationMs: c.durationMs,
        deviceSessionId: r.deviceSessionId ?? null,
      };
    });
    return {
      testSessionId,
      sessionStatus,
      matched: results.filter((r) => r.testCase === 'matched').length,
      created: results.filter((r) => r.testCase === 'created').length,
      skipped: results.filter((r) => r.status === 'skipped').length,
      results,
    };
  }
}
