import type { FastifyInstance } from 'fastify';
import type { Projection } from '#projections/types.js';
import type { HeaderCredential } from '../gateway/access-control.js';
import type { Platform } from '../platform.js';
import type { OrganizationModule } from '../organization/index.js';

/** The read models this module owns. */
export const healthcheckProjections: readonly Projection[] = [];

/** Health checks (`/healthcheck/**`): API keys, checks with push tokens, heartbeats and metrics. */
export function createHealthcheckModule(_platform: Platform, _deps: { organization: OrganizationModule }) {
  return {
    /** `X-API-KEY` for the gateway's access control. */
    credentials: [] as HeaderCredential[],
    async start(): Promise<void> {},
    async stop(): Promise<void> {},
    routes: async (_app: FastifyInstance) => {},
  };
}

export type HealthcheckModule = ReturnType<typeof createHealthcheckModule>;
