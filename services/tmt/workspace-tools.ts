import type { FastifyInstance } from 'fastify';
import type { Projection } from '#projections/types.js';
import type { Platform } from '../platform.js';
import type { TmtDeps } from './index.js';

/** Test management's user groups, pre-authorized downloads and public mock services (`/tmt/**`). */
/** Read models of user groups, downloads and mock services. */
export const toolsProjections: readonly Projection[] = [];

export function createWorkspaceTools(_platform: Platform, _deps: TmtDeps) {
  return {
    routes: async (_app: FastifyInstance) => {},
  };
}
