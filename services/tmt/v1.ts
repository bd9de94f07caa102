import type { FastifyInstance } from 'fastify';
import { tmtProjectsProjection } from '#projections/tmt-projects/index.js';
import { tmtTestCasesProjection } from '#projections/tmt-test-cases/index.js';
import { tmtTestSessionsProjection } from '#projections/tmt-test-sessions/index.js';
import type { Projection } from '#projections/types.js';
import type { Platform } from '../platform.js';
import type { TmtDeps } from './deps.js';
import { projectRoutes } from './projects/routes.js';
import { testCaseRoutes } from './test-cases/routes.js';
import type { ResultStatus } from '#events/tmt/test-sessions.js';
import { testSessionRoutes } from './test-sessions/routes.js';
import { TestSessionService, type TestSessionDetail } from './test-sessions/service.js';
import type { TmtActor } from './v1-http.js';
import { v1UserRoutes } from './v1-users/routes.js';

/**
 * The `/v1` set: projects, test cases, test sessions with results, users; and the
 * workspace's projects under `/tmt/company/api/v1/projects`.
 */
/** Read models of the /v1 set. */
export const v1Projections: readonly Projection[] = [tmtProjectsProjection, tmtTestCasesProjection, tmtTestSessionsProjection];

/** A result as another module (a test engine) reports it. */
export interface EngineResult {
  testCaseId: string;
  status: ResultStatus;
  notes?: string;
  durationMs?: number;
}

export function createV1(platform: Platform, deps: TmtDeps) {
  const sessions = new TestSessionService(platform);
  return {
    /** Test sessions for other modules: the same checks and errors (AppError) as the HTTP routes. */
    testSessions: {
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
    },
    routes: async (app: FastifyInstance) => {
      await app.register(projectRoutes, { platform });
      await app.register(testCaseRoutes, { platform });
      await app.register(testSessionRoutes, { platform, sessions });
      await app.register(v1UserRoutes, { platform, deps });
    },
  };
}
