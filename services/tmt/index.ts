import type { FastifyInstance } from 'fastify';
import { tmtAttachmentsProjection } from '#projections/tmt-attachments/index.js';
import { tmtMockServicesProjection } from '#projections/tmt-mock-services/index.js';
import { tmtProjectsProjection } from '#projections/tmt-projects/index.js';
import { tmtTestCasesProjection } from '#projections/tmt-test-cases/index.js';
import { tmtTestSessionsProjection } from '#projections/tmt-test-sessions/index.js';
import { tmtUserGroupsProjection } from '#projections/tmt-user-groups/index.js';
import type { Projection } from '#projections/types.js';
import { feature, registerFeatures } from '#shared/http/features.js';
import type { Platform } from '../platform.js';
import { attachmentsFeature } from './attachments/index.js';
import type { TmtDeps } from './deps.js';
import { DownloadKinds, downloadsFeature } from './downloads/index.js';
import { JunitImportService, junitImportFeature, type JunitCase } from './junit-import/index.js';
import { projectOr404 } from './projects/index.js';
import { mockServicesFeature } from './mock-services/index.js';
import { projectsFeature } from './projects/index.js';
import { testCasesFeature } from './test-cases/index.js';
import { TestSessionService, testSessionsFeature, testSessionsForModules } from './test-sessions/index.js';
import { userGroupsFeature } from './user-groups/index.js';
import { v1UsersFeature } from './v1-users/index.js';

export type { EngineResult } from './test-sessions/index.js';

/** The read models test management owns. */
export const tmtProjections: readonly Projection[] = [
  tmtProjectsProjection,
  tmtTestCasesProjection,
  tmtTestSessionsProjection,
  tmtUserGroupsProjection,
  tmtAttachmentsProjection,
  tmtMockServicesProjection,
];

/**
 * Test management: the `/v1` set (projects, test cases, test sessions with results, users) and
 * `/tmt/**` (user groups, attachments, downloads, mock services). Its routes carry their full paths
 * (the gateway strips nothing for `/tmt` and `/v1`).
 */
export function createTmtModule(platform: Platform, deps: TmtDeps) {
  const sessions = new TestSessionService(platform, deps.deviceSessions);
  const imports = new JunitImportService(platform, sessions);
  // Kinds of pre-authorized downloads: the features owning the objects register theirs.
  const downloads = new DownloadKinds();
  const features = [
    feature(projectsFeature, { platform }),
    feature(testCasesFeature, { platform }),
    feature(testSessionsFeature, { platform, sessions, downloads, deviceSessions: deps.deviceSessions }),
    feature(junitImportFeature, { imports }),
    feature(v1UsersFeature, { platform, deps }),
    feature(userGroupsFeature, { platform }),
    feature(attachmentsFeature, { platform, downloads }),
    feature(downloadsFeature, { platform, kinds: downloads }),
    feature(mockServicesFeature, { platform }),
  ];
  return {
    /** Test sessions for other modules (test engines report their results here). */
    testSessions: testSessionsForModules(sessions),
    /** Results other modules produce (a device test run's attempts), filed as a new test session of a project. */
    testResults: {
      /** Whether the project is one of the workspace's (404 otherwise). */
      requireProject: async (scope: { companyId: number; workspaceId: number }, projectId: string): Promise<void> => {
        await projectOr404(platform, scope, projectId);
      },
      /** Files the cases into a new, completed session of the project named `name`; answers its id. */
      file: async (scope: { companyId: number; workspaceId: number; userId: number }, projectId: string, name: string, cases: JunitCase[]): Promise<{ testSessionId: string }> => {
        const imported = await imports.casesIntoProject({ companyId: scope.companyId, workspaceId: scope.workspaceId, actor: { userId: scope.userId } }, projectId, cases, name, { close: true });
        return { testSessionId: imported.testSessionId };
      },
    },
    routes: async (app: FastifyInstance) => {
      await registerFeatures(app, features);
    },
  };
}

export type TmtModule = ReturnType<typeof createTmtModule>;
export type { TmtDeps };
