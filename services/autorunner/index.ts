import type { FastifyInstance } from 'fastify';
import { arEnginesProjection } from '#projections/ar-engines/index.js';
import { arRunsProjection } from '#projections/ar-runs/index.js';
import type { Projection } from '#projections/types.js';
import { AppError } from '#shared/errors.js';
import type { HeaderCredential } from '../gateway/access-control.js';
import type { Platform } from '../platform.js';
import type { OrganizationModule } from '../organization/index.js';
import type { TmtModule } from '../tmt/index.js';
import { engineRoutes, engineTokenVerifier } from './engines/routes.js';
import { engineOf } from './http.js';
import { runRoutes, type TestSessionSink } from './runs/routes.js';

export { engineDecider } from './engines/decide.js';
export { runDecider } from './runs/decide.js';
export type { TestSessionSink } from './runs/routes.js';

/** The read models this module owns. */
export const autorunnerProjections: readonly Projection[] = [arEnginesProjection, arRunsProjection];

const ENGINE_TOKEN_PATHS = [/^\/autorunner\/api\/v1(\/.*)?$/];

/** Test engines (`/autorunner/api/v1/**`): engines, engine tokens, runs and their results. */
export function createAutorunnerModule(platform: Platform, deps: { organization: OrganizationModule; tmt: TmtModule }) {
  const sessions: TestSessionSink = deps.tmt.v1.testSessions;
  return {
    /** `X-Engine-Token` for the gateway's access control. */
    credentials: [
      { header: 'x-engine-token', paths: ENGINE_TOKEN_PATHS, label: 'engine token', verify: engineTokenVerifier(platform, deps.organization.resolveWorkspace) },
    ] as HeaderCredential[],
    routes: async (app: FastifyInstance) => {
      // An engine acts only in the workspace it was registered in: naming another one is a token of
      // another workspace, refused as such.
      app.addHook('onRequest', async (request) => {
        const engine = engineOf(request);
        const header = request.headers['x-workspace-id'];
        if (engine && header !== undefined && String(header).trim() !== String(engine.workspaceId)) {
          throw new AppError('UNAUTHORIZED', 'Invalid engine token for this workspace');
        }
      });
      await app.register(engineRoutes, { platform });
      await app.register(runRoutes, { platform, sessions });
    },
  };
}

export type AutorunnerModule = ReturnType<typeof createAutorunnerModule>;
