import fp from 'fastify-plugin';
import { healthRoutes } from './routes.js';

/** The feature's options: those of its routes. */
export type HealthFeatureOptions = Parameters<typeof healthRoutes>[1];

/** Device health (`/df/api/fleet/health-rules`, `/df/api/devices/{id}/health`, maintenance, quarantine release, the baseline's re-take). */
export const healthFeature = fp(
  async (app, opts: HealthFeatureOptions) => {
    await app.register(healthRoutes, opts);
  },
  { name: 'df-health', dependencies: [], fastify: '5.x' },
);

export { HealthService } from './service.js';
export { BusyWatchdog, unexplained, WATCHDOG_ACTOR } from './watchdog.js';
export { evaluate } from './rules.js';
export { QuarantineMailer, entersQuarantine, quarantineMail } from './quarantine-mail.js';
