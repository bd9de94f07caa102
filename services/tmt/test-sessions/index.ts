import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ResultStatus } from '#events/tmt/test-sessions.js';
import type { Platform } from '../../platform.js';
import type { DownloadKinds } from '../downloads/index.js';
import type { TmtDeps } from '../deps.js';
import type { TmtActor } from '../http.js';
import { testSessionReportKind } from './report.js';
import { testSessionRoutes } from './routes.js';
import { TestSessionService, type TestSessionDetail } from './service.js';

export { testSessionDecider, type TestSessionCommand, type TestSessionState } from './decide.js';
export { TestSessionService, type TestSessionDetail } from './service.js';

/** A result as another module (a test engine) reports it. */
export interface EngineResult {
  testCaseId: string;
  status: ResultStatus;
  notes?: string;
  durationMs?: number;
}

/** Test sessions for other modules: the same checks and errors (AppError) as the HTTP routes. */
export function testSessionsForModules(sessions: TestSessionService) {
  return {
    /** Records 1 to 1,000 results at once (all or none); the actor may be a user or an engine. */
    recordResults: async (
      scope: { companyId: number; workspaceId: number; actor: TmtActor },
      sessionId: string,
      results: EngineResult[],
    ): Promise<{ recorded: number; position: bigint }> => {
      const { recorded, position } = await sessions.recordResults(scope, sessionId, results);
      return { recorded, position };
    },
    /** The session with its current results, or null (also for another tenant's id). */
    get: (scope: { companyId: number; workspaceId: number }, sessionId: string): Promise<TestSessionDetail | null> => sessions.get(scope, sessionId),
  };
}

export interface TestSessionsFeatureOptions {
  platform: Platform;
  sessions: TestSessionService;
  /** The module's download kinds: a session's report is handed out as a pre-authorized download link. */
  downloads: DownloadKinds;
  /** The device sessions results name, and their videos (the results' attachments). */
  deviceSessions: TmtDeps['deviceSessions'];
}

/** Test sessions of a project with their results (`/v1/test-sessions`), and their CSV report as a download kind. */
export const testSessionsFeature = fp(
  async (app: FastifyInstance, opts: TestSessionsFeatureOptions) => {
    opts.downloads.register('test-session-report', testSessionReportKind(opts.platform, opts.sessions));
    await app.register(testSessionRoutes, opts);
  },
  // A session runs test cases of a project.
  { name: 'tmt-test-sessions', fastify: '5.x', dependencies: ['tmt-projects', 'tmt-test-cases'] },
);
