import type { FastifyInstance } from 'fastify';
import { arEnginesProjection } from '#projections/ar-engines/index.js';
import { arRunsProjection } from '#projections/ar-runs/index.js';
import type { Projection } from '#projections/types.js';
import { AppError } from '#shared/errors.js';
import type { HeaderCredential } from '../gateway/access-control.js';
import type { Platform } from '../platform.js';
import type { OrganizationModule } from '../organization/index.js';
import type { TmtModule } from '../tmt/index.js';
import { feature, registerFeatures } from '#shared/http/features.js';
import { enginesFeature, engineTokenVerifier } from './engines/index.js';
import { engineOf } from './http.js';
import { runsFeature, type TestSessionSink } from './runs/index.js';

export { engineDecider } from './engines/index.js';
export { runDecider, type TestSessionSink } from './runs/index.js';

/** The read models this module owns. */
export const autorunnerProjections: readonly Projection[] = [arEnginesProjection, arRunsProjection];

const ENGINE_TOKEN_PATHS = [/^\/autorunner\/api\/v1(\/.*)?$/];

/** Test engines (`/autorunner/api/v1/**`): engines, engine tokens, runs and their results. */
export function createAutorunnerModule(platform: Platform, deps: { organization: OrganizationModule; tmt: TmtModule }) {
  const sessions: TestSessionSink = deps.tmt.testSessions;
  // Engines whose token was made from a password sign-in wait for approval where the company requires single sign-on.
  const held = (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => deps.organization.auth.enforcement.holds(key);
  const features = [feature(enginesFeature, { platform, held }), feature(runsFeature, { platform, sessions })];
  return {
    /** `X-Engine-Token` for the gateway's access control. */
    credentials: [
      { header: 'x-engine-token', paths: ENGINE_TOKEN_PATHS, label: 'engine token', verify: engineTokenVerifier(platform, deps.organization.resolveWorkspace, held) },
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
      await registerFeatures(app, features);
    },
  };
}

export type AutorunnerModule = ReturnType<typeof createAutorunnerModule>;
