import type { FastifyInstance } from 'fastify';
import { checkActionRoutes } from './actions.js';
import { checkRoutes } from './checks.js';
import { pushRoutes } from './push.js';
import { checkPulseRoutes } from './pulses.js';
import type { CheckRoutesOptions } from './schemas.js';

export type { CheckRoutesOptions } from './schemas.js';

/** Every route of the checks feature: the checks, their actions and pulses, and the public push endpoints. */
export async function checksRoutes(app: FastifyInstance, opts: CheckRoutesOptions): Promise<void> {
  await app.register(checkRoutes, opts);
  await app.register(checkActionRoutes, opts);
  await app.register(checkPulseRoutes, opts);
  await app.register(pushRoutes, opts);
}
