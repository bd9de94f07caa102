import type { FastifyInstance } from 'fastify';
import type { Projection } from '#projections/types.js';
import type { Platform } from '../platform.js';
import type { TmtDeps } from './index.js';

/**
 * The `/v1` set (interface 4.7): projects, test cases, test sessions with results, users; and the
 * workspace's projects under `/tmt/company/api/v1/projects`.
 */
/** Read models of the /v1 set. */
export const v1Projections: readonly Projection[] = [];

export function createV1(_platform: Platform, _deps: TmtDeps) {
  return {
    routes: async (_app: FastifyInstance) => {},
  };
}
