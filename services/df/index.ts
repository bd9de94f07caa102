import type { FastifyInstance } from 'fastify';
import { dfAccessibilityProjection } from '#projections/df-accessibility/index.js';
import { dfApiKeysProjection } from '#projections/df-api-keys/index.js';
import { dfDevicesProjection } from '#projections/df-devices/index.js';
import { dfReservationsProjection } from '#projections/df-reservations/index.js';
import { dfSessionsProjection } from '#projections/df-sessions/index.js';
import { dfSessionSharingProjection } from '#projections/df-session-sharing/index.js';
import { dfReportsProjection } from '#projections/df-reports/index.js';
import { dfSettingsProjection } from '#projections/df-settings/index.js';
import type { Projection } from '#projections/types.js';
import type { ActiveWorkspace, PermissionResolver } from '#shared/http/principal.js';
import type { Platform } from '../platform.js';
import { clientConfigRoutes } from './client-config.js';
import { createDataPlane } from './data-plane/index.js';
import { debugRoutes } from './debug/routes.js';
import { DebugService } from './debug/service.js';
import { devtoolsRoutes } from './devtools/routes.js';
import { deviceRoutes } from './devices/routes.js';
import { DeviceCommands } from './devices/service.js';
import { HostEnrolments } from './hosts/enrolments.js';
import { HostRegistry } from './hosts/registry.js';
import { hostRoutes } from './hosts/routes.js';
import { dfHostsProjection } from '#projections/df-hosts/index.js';
import { apiKeyRoutes, apiKeyVerifier } from './keys/routes.js';
import { ScreenHub } from './live/screen-hub.js';
import { viewerSocketRoutes, type TokenAuthenticator } from './live/ws-routes.js';
import { reservationRoutes } from './reservations/routes.js';
import { ReservationService } from './reservations/service.js';
import { sessionRoutes } from './sessions/routes/index.js';
import { SessionService } from './sessions/service.js';
import { sharingRoutes } from './sharing/routes.js';
import { SharingService } from './sharing/service.js';
import { webdriverRoutes } from './wd/routes.js';
import { automationRoutes } from './automation/routes.js';
import { accessibilityRoutes } from './accessibility/routes/index.js';
import { AccessibilityService } from './accessibility/service.js';
import { dfFilesProjection } from '#projections/df-files/index.js';
import { dfOperationsProjection } from '#projections/df-operations/index.js';
import { CatalogInstaller } from './files/install.js';
import { fileRoutes } from './files/routes/index.js';
import { FileService } from './files/service.js';
import { operationRoutes } from './operations/routes.js';
import { OperationService } from './operations/service.js';
import { fleetRoutes } from './fleet/routes.js';
import { FleetService } from './fleet/service.js';

export { liftAccessToken, type TokenAuthenticator } from './live/ws-routes.js';

/** The read models the device module owns. */
export const dfProjections: readonly Projection[] = [
  dfDevicesProjection,
  dfSessionsProjection,
  dfApiKeysProjection,
  dfHostsProjection,
  dfReservationsProjection,
  dfSessionSharingProjection,
  dfFilesProjection,
  dfOperationsProjection,
  dfAccessibilityProjection,
  dfReportsProjection,
  dfSettingsProjection,
];

/** How often the reservation ticker runs (activation, expiry, end): a few times per grace, at most every 5 s. */
const reservationTickMs = (graceMs: number) => Math.max(250, Math.min(5_000, Math.floor(graceMs / 4)));

/** What the device module asks of the organization and the gateway. */
export interface DfModuleDeps {
  resolveWorkspace(user: { userId: number; companyId: number }, workspaceId: number): Promise<ActiveWorkspace | null>;
  permissionsOf: PermissionResolver;
  /** Verifies a token sent inside a viewer WebSocket (its first message). */
  authenticate: TokenAuthenticator;
}

/** The device-testing module; its routes are relative to `/df`, which the gateway strips. */
export function createDfModule(platform: Platform, deps: DfModuleDeps) {
  const { config } = platform;
  const devices = new DeviceCommands(platform.store);
  const hub = new ScreenHub({ bus: platform.bus, blobs: platform.blobs, logger: platform.logger, commandTimeoutMs: config.DF_COMMAND_TIMEOUT });
  const sessions = new SessionService({
    store: platform.store,
    db: platform.db,
    bus: platform.bus,
    blobs: platform.blobs,
    logger: platform.logger,
    get readModels() {
      return platform.readModels;
    },
    devices,
    hub,
    // Read at each use, so a replaced platform clock (tests, docs/architecture.md) reaches sessions too.
    now: () => platform.now(),
    prepareTimeoutMs: config.DF_PREPARE_TIMEOUT,
    commandTimeoutMs: config.DF_COMMAND_TIMEOUT,
    idleTimeoutMs: config.DF_SESSION_IDLE_TIMEOUT,
    sharedPool: config.DF_SHARED_POOL_TOKEN !== undefined,
  });
  const enrolments = new HostEnrolments({ store: platform.store, sharedPoolToken: config.DF_SHARED_POOL_TOKEN });
  const reservations = new ReservationService({
    store: platform.store,
    db: platform.db,
    logger: platform.logger,
    get readModels() {
      return platform.readModels;
    },
    sessions,
    hub,
    kv: platform.kv,
    now: () => platform.now(),
    graceMs: config.DF_RESERVATION_GRACE,
    tickMs: reservationTickMs(config.DF_RESERVATION_GRACE),
  });
  sessions.reservations = reservations;
  const fleet = new FleetService({
    db: platform.db,
    store: platform.store,
    blobs: platform.blobs,
    logger: platform.logger,
    get readModels() {
      return platform.readModels;
    },
    now: () => platform.now(),
    sessions,
    defaultPlan: {
      plan: config.DF_QUOTA_PLAN,
      limits: {
        concurrentSessions: config.DF_QUOTA_CONCURRENT_SESSIONS,
        sessionMinutesPerMonth: config.DF_QUOTA_SESSION_MINUTES_PER_MONTH,
        reservationHoursPerMonth: config.DF_QUOTA_RESERVATION_HOURS_PER_MONTH,
        storageBytes: config.DF_QUOTA_STORAGE_BYTES,
        apiKeys: config.DF_QUOTA_API_KEYS,
      },
    },
    defaultSession: {
      idleTimeoutSeconds: Math.max(1, Math.round(config.DF_SESSION_IDLE_TIMEOUT / 1000)),
      // At most 7 days, the longest a workspace may set (the reports rely on it: docs/modules/device-testing.md).
      maxSessionSeconds: Math.min(7 * 86_400, Math.max(1, Math.round(config.DF_SESSION_MAX_DURATION / 1000))),
      recordByDefault: false,
      screenshotFormat: 'png',
    },
  });
  sessions.fleet = fleet;
  reservations.quota = fleet;
  const sharing = new SharingService(platform, hub);
  const accessibility = new AccessibilityService(platform, sessions);
  const dataPlane = createDataPlane({ db: platform.db, kv: platform.kv, keys: platform.keys, now: platform.now });
  const debug = new DebugService(platform, sessions, dataPlane);
  const operations = new OperationService({
    store: platform.store,
    db: platform.db,
    kv: platform.kv,
    logger: platform.logger,
    get readModels() {
      return platform.readModels;
    },
    now: () => platform.now(),
  });
  const files = new FileService({
    store: platform.store,
    db: platform.db,
    blobs: platform.blobs,
    logger: platform.logger,
    get readModels() {
      return platform.readModels;
    },
    operations,
    now: () => platform.now(),
    storage: { admit: (companyId, bytes) => fleet.admitUpload(companyId, bytes) },
    limits: {
      maxBytes: config.DF_FILE_MAX_BYTES,
      uploadUrlTtlMs: config.DF_UPLOAD_URL_TTL,
      downloadUrlTtlMs: config.DF_DOWNLOAD_URL_TTL,
      uploadExpiryMs: config.DF_UPLOAD_EXPIRY,
      backfillThrottleMs: config.DF_BACKFILL_THROTTLE_MS,
    },
  });
  const installer = new CatalogInstaller({ db: platform.db, blobs: platform.blobs, sessions, operations });
  const hosts = new HostRegistry({
    dataPlaneKeys: platform.keys.publicJwks,
    bus: platform.bus,
    kv: platform.kv,
    db: platform.db,
    devices,
    sessions,
    enrolments,
    logger: platform.logger,
    hostTimeoutMs: config.DF_HOST_TIMEOUT,
    reconnectGraceMs: config.DF_HOST_RECONNECT_GRACE,
    now: platform.now,
  });
  return {
    sessions,
    hub,
    /** Host enrolments: who may connect devices, and to which company and workspaces. */
    enrolments,
    /** Device bookings; `reservations.step()` runs one step of their ticker now (tests, operations). */
    reservations,
    /** Plan limits, session defaults and their sweeper; `fleet.sweep()` runs one sweep now (tests, operations). */
    fleet,
    /** Tokens and addresses for reaching a session's device directly (the data plane): `/df/devtools`, `/df/wd`. */
    dataPlane,
    /** `X-Api-Key` verification for the gateway's access control. */
    verifyApiKey: apiKeyVerifier(platform, deps.resolveWorkspace),
    /** Remote debugging: grants, targets, tunnels and terminals. */
    debug,
    /** Files and the app catalog; `files.sweep()` cleans up expired uploads now. */
    files,
    /** Long-running operations; `operations.reap()` fails those whose process died, now. */
    operations,
    /** Listens to agents and starts the reapers. */
    async start(): Promise<void> {
      await hub.start();
      await hosts.start();
      sessions.start();
      reservations.start();
      await operations.watch();
      files.start();
      fleet.start(Math.max(250, Math.min(30_000, Math.floor(config.DF_SESSION_IDLE_TIMEOUT / 4))));
    },
    async stop(): Promise<void> {
      await accessibility.stop();
      files.stop();
      await operations.stop();
      await reservations.stop();
      await fleet.stop();
      await hosts.stop();
      await sessions.stop();
      await hub.stop();
    },
    routes: async (app: FastifyInstance) => {
      await app.register(clientConfigRoutes, { sessionIdleTimeoutSeconds: Math.round(config.DF_SESSION_IDLE_TIMEOUT / 1000), appUrl: config.APP_URL });
      await app.register(deviceRoutes, { platform, devices });
      await app.register(sessionRoutes, { platform, sessions, hub, sharing });
      await app.register(sharingRoutes, { platform, sessions, sharing });
      await app.register(reservationRoutes, { platform, reservations });
      await app.register((await import('./sessions/routes/index.js')).deviceContentRoutes, { db: platform.db, sessions, installFromCatalog: (c, s, what) => installer.start(c, s, what) });
      await app.register(fileRoutes, { platform, files });
      await app.register(operationRoutes, { operations });
      await app.register(apiKeyRoutes(platform, fleet));
      await app.register(fleetRoutes, { platform, fleet, sessions });
      await app.register(hostRoutes, { platform, enrolments, registry: hosts, resolveWorkspace: deps.resolveWorkspace });
      await app.register(devtoolsRoutes, { platform, dataPlane });
      await app.register(debugRoutes, { platform, debug });
      await app.register(webdriverRoutes, { platform, sessions, dataPlane });
      await app.register(automationRoutes, { platform, sessions });
      await app.register(accessibilityRoutes, { platform, sessions, accessibility });
      await app.register(viewerSocketRoutes, { platform, sessions, hub, sharing, debug, authenticate: deps.authenticate, permissionsOf: deps.permissionsOf });
    },
  };
}

export type DfModule = ReturnType<typeof createDfModule>;
