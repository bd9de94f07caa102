import type { FastifyInstance } from 'fastify';
import type { Projection } from '#projections/types.js';
import type { HeaderCredential } from '../gateway/access-control.js';
import type { Platform } from '../platform.js';
import type { OrganizationModule } from '../organization/index.js';
import type { TmtModule } from '../tmt/index.js';

/** The read models this module owns. */
export const autorunnerProjections: readonly Projection[] = [];

/** Test engines (`/autorunner/api/v1/**`): engines, engine tokens, runs and their results. */
export function createAutorunnerModule(_platform: Platform, _deps: { organization: OrganizationModule; tmt: TmtModule }) {
  return {
    /** `X-Engine-Token` for the gateway's access control. */
    credentials: [] as HeaderCredential[],
    routes: async (_app: FastifyInstance) => {},
  };
}

export type AutorunnerModule = ReturnType<typeof createAutorunnerModule>;
