import type { FastifyInstance } from 'fastify';
import type { Projection } from '#projections/types.js';
import type { Platform } from '../platform.js';
import type { TmtDeps } from './deps.js';
import { testSessionReportKind } from './test-sessions/report.js';
import { createV1, v1Projections } from './v1.js';
import { createWorkspaceTools, toolsProjections } from './workspace-tools.js';

/** The read models test management owns. */
export const tmtProjections: readonly Projection[] = [...v1Projections, ...toolsProjections];

/**
 * Test management: the `/v1` set and `/tmt/**`. Its routes carry their full paths (the gateway strips
 * nothing for `/tmt` and `/v1`).
 */
export function createTmtModule(platform: Platform, deps: TmtDeps) {
  const v1 = createV1(platform, deps);
  const tools = createWorkspaceTools(platform, deps);
  // A test session's report can be handed out as a pre-authorized download link.
  tools.downloads.register('test-session-report', testSessionReportKind(platform, v1.testSessions));
  return {
    v1,
    tools,
    routes: async (app: FastifyInstance) => {
      await app.register(v1.routes);
      await app.register(tools.routes);
    },
  };
}

export type TmtModule = ReturnType<typeof createTmtModule>;
export type { TmtDeps };
