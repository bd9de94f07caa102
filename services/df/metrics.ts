import { deviceCountsByHealth, deviceCountsByStatus } from '#projections/df-devices/index.js';
import { sessionCountsByStatus } from '#projections/df-sessions/index.js';
import type { Sql } from '#shared/db/index.js';
import { qaMetrics } from '#shared/metrics/index.js';

/**
 * The fleet's gauges (`qa_sessions` by state, `qa_devices` by state and platform), read from the read
 * models when scraped; returns the function that stops reading them (the module's stop).
 */
export function readFleetGauges(db: Sql): () => void {
  const stopSessions = qaMetrics.sessionsByState.use(async () =>
    (await sessionCountsByStatus(db)).map((r) => ({ labels: { state: r.status }, value: r.count })),
  );
  const stopDevices = qaMetrics.devicesByState.use(async () =>
    (await deviceCountsByStatus(db)).map((r) => ({ labels: { state: r.status, platform: r.platform }, value: r.count })),
  );
  const stopHealth = qaMetrics.devicesByHealth.use(async () =>
    (await deviceCountsByHealth(db)).map((r) => ({ labels: { health: r.health, platform: r.platform }, value: r.count })),
  );
  return () => {
    stopSessions();
    stopDevices();
    stopHealth();
  };
}
