import type { FastifyInstance } from 'fastify';
import { dfAccessibilityProjection } from '#projections/df-accessibility/index.js';
import { dfApiKeysProjection } from '#projections/df-api-keys/index.js';
import { dfDevicesProjection } from '#projections/df-devices/index.js';
import { dfReservationsProjection } from '#projections/df-reservations/index.js';
import { dfSessionsProjection } from '#projections/df-sessions/index.js';
import { dfSessionSharingProjection } from '#projections/df-session-sharing/index.js';
import { dfReportsProjection } from '#projections/df-reports/index.js';
import { dfSettingsProjection } from '#projections/df-settings/index.js';
import { dfHostsProjection } from '#projections/df-hosts/index.js';
import { dfFilesProjection } from '#projections/df-files/index.js';
import { dfOperationsProjection } from '#projections/df-operations/index.js';
import { dfTestRunsProjection } from '#projections/df-test-runs/index.js';
import type { Projection } from '#projections/types.js';
import { feature, registerFeatures, type Feature } from '#shared/http/features.js';
import type { ActiveWorkspace, PermissionResolver } from '#shared/http/principal.js';
import type { Platform, ReadModelWaiter } from '../platform.js';
import { createDataPlane } from './core/data-plane.js';
import { ScreenHub } from './core/screen-hub.js';
import { accessibilityFeature, AccessibilityService } from './accessibility/index.js';
import { automationFeature } from './automation/index.js';
import { clientConfigFeature } from './client-config/index.js';
import { debugFeature, DebugService } from './debug/index.js';
import { DeviceCommands, devicesFeature } from './devices/index.js';
import { devtoolsFeature } from './devtools/index.js';
import { evidenceFeature, SessionEvidenceBuilder, type EvidenceSigner } from './evidence/index.js';
import { CatalogInstaller, filesFeature, FileService, TestApkListings } from './files/index.js';
import { fleetFeature, FleetService, FleetSweeper } from './fleet/index.js';
import { SessionHolders } from './core/holders.js';
import { BusyWatchdog, healthFeature, HealthService } from './health/index.js';
import { HostEnrolments, HostRegistry, hostsFeature } from './hosts/index.js';
import { apiKeyVerifier, keysFeature } from './keys/index.js';
import { liveFeature, type TokenAuthenticator } from './live/index.js';
import { OperationService, operationsFeature } from './operations/index.js';
import { BookingGate, MaintenanceConflictMailer, reservationsFeature, ReservationService } from './reservations/index.js';
import { SessionService, sessionsFeature } from './sessions/index.js';
import { sharingFeature, SharingService } from './sharing/index.js';
import { TestRunService, testRunsFeature, type TestResultsPort } from './test-runs/index.js';
import { wdFeature } from './wd/index.js';
import { readFleetGauges } from './metrics.js';

export { liftAccessToken, type TokenAuthenticator } from './live/index.js';
export { deviceSessionsForResults, type DeviceSessionsForResults, type DeviceSessionVideo, type ResultReader } from './sessions/index.js';

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
  dfTestRunsProjection,
];

/** How often the reservation ticker runs (activation, expiry, end): a few times per grace, at most every 5 s. */
const reservationTickMs = (graceMs: number) => Math.max(250, Math.min(5_000, Math.floor(graceMs / 4)));

/** What the device module asks of the organization and the gateway. */
export interface DfModuleDeps {
  resolveWorkspace(user: { userId: number; companyId: number }, workspaceId: number): Promise<ActiveWorkspace | null>;
  permissionsOf: PermissionResolver;
  /** Verifies a token sent inside a viewer WebSocket (its first message). */
  authenticate: TokenAuthenticator;
  /** Whether a device key waits for an administrator's approval (single sign-on required). */
  credentialHeld?: (key: { credentialId: string; userId: number; signIn: 'password' | 'sso' }) => Promise<boolean>;
  /** Test management, where test runs file their results. */
  testResults?: TestResultsPort;
  /** The history's chain: the audit signing key and the chained events a session's evidence carries. */
  auditChain: EvidenceSigner;
}

/** One feature of the module: its plugin and the options it is registered with, typed together. */

/**
 * A service's dependencies with the platform's store, database, logger and clock. The read-model
 * waiter and the clock are read at each use, so a replaced platform clock or waiter (tests,
 * docs/architecture.md) reaches every service.
 */
function withPlatform<T extends object>(platform: Platform, own: T) {
  const deps = { ...own, store: platform.store, db: platform.db, logger: platform.logger, now: () => platform.now() };
  return Object.defineProperty(deps, 'readModels', { get: () => platform.readModels, enumerable: true }) as typeof deps & { readonly readModels: ReadModelWaiter };
}

/** Plan limits and session defaults of the configuration (`DF_QUOTA_*`, `DF_SESSION_*`). */
function fleetDefaults(config: Platform['config']) {
  return {
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
      recordAutomation: true,
      screenshotFormat: 'png' as const,
      videoRetentionDays: null,
    },
  };
}

/**
 * The sessions and what stands on either side of them, each built once with everything it needs.
 * Sessions ask the booking gate and the plan limits, which need no sessions, so those are built
 * first; the reservation commands and ticker and the fleet sweeper end and open sessions, so they
 * are built after.
 */
function buildSessionSide(platform: Platform, devices: DeviceCommands, hub: ScreenHub, health: HealthService, gate: BookingGate) {
  const { config } = platform;
  const holders = new SessionHolders(platform.kv, 2 * config.DF_WATCHDOG_PERIOD);
  holders.addSource(() => hub.watched());
  const fleet = new FleetService(withPlatform(platform, { blobs: platform.blobs, ...fleetDefaults(config) }));
  const sessions = new SessionService(
    withPlatform(platform, {
      bus: platform.bus,
      blobs: platform.blobs,
      devices,
      hub,
      reservations: gate,
      fleet,
      prepareTimeoutMs: config.DF_PREPARE_TIMEOUT,
      commandTimeoutMs: config.DF_COMMAND_TIMEOUT,
      idleTimeoutMs: config.DF_SESSION_IDLE_TIMEOUT,
      typingBurstMs: config.DF_TYPING_BURST,
      sharedPool: config.DF_SHARED_POOL_TOKEN !== undefined,
      holders,
      resetFailed: (deviceId: string, reason: string) => health.quarantineAfterFailedReset(deviceId, reason),
      sessionClosed: (deviceId: string) => health.sessionClosed(deviceId),
    }),
  );
  const reservations = new ReservationService(
    withPlatform(platform, {
      gate,
      sessions,
      quota: fleet,
      maintenance: health,
      hub,
      kv: platform.kv,
      graceMs: config.DF_RESERVATION_GRACE,
      tickMs: reservationTickMs(config.DF_RESERVATION_GRACE),
    }),
  );
  const sweeper = new FleetSweeper(withPlatform(platform, { fleet, sessions, maxSessionSeconds: fleetDefaults(config).defaultSession.maxSessionSeconds }));
  const watchdog = new BusyWatchdog(withPlatform(platform, { holders, sessions, periodMs: config.DF_WATCHDOG_PERIOD }));
  return { fleet, sessions, reservations, sweeper, watchdog, holders };
}

/** The services of the device module, in the order they need each other (constructor injection only). */
function buildServices(platform: Platform, deps: DfModuleDeps) {
  const { config } = platform;
  const devices = new DeviceCommands(platform.store);
  const hub = new ScreenHub({ bus: platform.bus, blobs: platform.blobs, logger: platform.logger, commandTimeoutMs: config.DF_COMMAND_TIMEOUT });
  // The booking gate needs nothing else: device health tells bookings through it when a maintenance falls in them.
  const gate = new BookingGate(withPlatform(platform, {}));
  const health = new HealthService(platform, { bookings: gate });
  // Mails a booker the maintenance that falls in their booking (it follows the event log).
  const bookingMails = new MaintenanceConflictMailer(platform);
  const { fleet, sessions, reservations, sweeper, watchdog, holders } = buildSessionSide(platform, devices, hub, health, gate);
  const enrolments = new HostEnrolments({ store: platform.store, sharedPoolToken: config.DF_SHARED_POOL_TOKEN });
  const sharing = new SharingService(platform, hub);
  const accessibility = new AccessibilityService(platform, sessions);
  const dataPlane = createDataPlane({ db: platform.db, kv: platform.kv, keys: platform.keys, now: platform.now });
  const debug = new DebugService(platform, sessions, dataPlane);
  const operations = new OperationService(withPlatform(platform, { kv: platform.kv }));
  const files = new FileService(
    withPlatform(platform, {
      blobs: platform.blobs,
      operations,
      storage: { admit: (companyId: number, bytes: number) => fleet.admitUpload(companyId, bytes) },
      limits: {
        maxBytes: config.DF_FILE_MAX_BYTES,
        uploadUrlTtlMs: config.DF_UPLOAD_URL_TTL,
        downloadUrlTtlMs: config.DF_DOWNLOAD_URL_TTL,
        uploadExpiryMs: config.DF_UPLOAD_EXPIRY,
        backfillThrottleMs: config.DF_BACKFILL_THROTTLE_MS,
      },
    }),
  );
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
    clock: platform,
    // The baseline an administrator re-took lives in the agent's memory: a device that joins gets it back.
    joined: (hostId, deviceIds) => void health.devicesJoined(hostId, deviceIds),
  });
  const listings = new TestApkListings({ db: platform.db, blobs: platform.blobs, logger: platform.logger });
  const testRuns = new TestRunService({
    platform,
    sessions,
    listTests: (scope, versionId) => listings.of(scope, versionId),
    concurrentSessionLimit: async (companyId) => (await fleet.plan(companyId)).limits.concurrentSessions,
    results: deps.testResults ?? null,
    holders,
  });
  const evidence = new SessionEvidenceBuilder({ db: platform.db, blobs: platform.blobs, now: () => platform.now(), signer: deps.auditChain });
  return { devices, hub, fleet, gate, bookingMails, sessions, reservations, sweeper, watchdog, enrolments, sharing, accessibility, dataPlane, debug, operations, files, installer, hosts, testRuns, health, evidence };
}

type DfServices = ReturnType<typeof buildServices>;

/** The module's features in the order they are registered (each after the features it depends on). */
function featureList(platform: Platform, deps: DfModuleDeps, s: DfServices): Feature<any>[] {
  const { config } = platform;
  return [
    feature(clientConfigFeature, { sessionIdleTimeoutSeconds: Math.round(config.DF_SESSION_IDLE_TIMEOUT / 1000), appUrl: config.APP_URL }),
    feature(devicesFeature, { platform, devices: s.devices }),
    feature(sharingFeature, { platform, sessions: s.sessions, sharing: s.sharing }),
    feature(sessionsFeature, { platform, sessions: s.sessions, hub: s.hub, sharing: s.sharing, installFromCatalog: (c, session, what) => s.installer.start(c, session, what) }),
    feature(evidenceFeature, { platform, evidence: s.evidence }),
    feature(reservationsFeature, { platform, reservations: s.reservations }),
    feature(operationsFeature, { operations: s.operations }),
    feature(filesFeature, { platform, files: s.files }),
    feature(keysFeature, { platform, quota: s.fleet, ...(deps.credentialHeld ? { held: deps.credentialHeld } : {}) }),
    feature(fleetFeature, { platform, fleet: s.fleet, sessions: s.sessions }),
    feature(hostsFeature, { platform, enrolments: s.enrolments, registry: s.hosts, resolveWorkspace: deps.resolveWorkspace }),
    feature(devtoolsFeature, { platform, dataPlane: s.dataPlane }),
    feature(debugFeature, { platform, debug: s.debug }),
    feature(wdFeature, { platform, sessions: s.sessions, bookings: s.gate, dataPlane: s.dataPlane }),
    feature(automationFeature, { platform, sessions: s.sessions }),
    feature(accessibilityFeature, { platform, sessions: s.sessions, accessibility: s.accessibility }),
    feature(testRunsFeature, { platform, runs: s.testRuns }),
    feature(healthFeature, { health: s.health, sharedPool: config.DF_SHARED_POOL_TOKEN !== undefined }),
    feature(liveFeature, { platform, sessions: s.sessions, hub: s.hub, sharing: s.sharing, debug: s.debug, authenticate: deps.authenticate, permissionsOf: deps.permissionsOf }),
  ];
}

/** The device-testing module; its routes are relative to `/df`, which the gateway strips. */
export function createDfModule(platform: Platform, deps: DfModuleDeps) {
  const { config } = platform;
  const s = buildServices(platform, deps);
  const features = featureList(platform, deps, s);
  let stopGauges = () => {};
  return {
    sessions: s.sessions,
    hub: s.hub,
    /** Host enrolments: who may connect devices, and to which company and workspaces. */
    enrolments: s.enrolments,
    /** Device bookings; `reservations.step()` runs one step of their ticker now (tests, operations). */
    reservations: s.reservations,
    /** Plan limits and session defaults. */
    fleet: s.fleet,
    /** The sweeper of sessions past their workspace's limits; `fleetSweeper.sweep()` runs one sweep now (tests, operations). */
    fleetSweeper: s.sweeper,
    /** The busy-device watchdog; `watchdog.check()` runs one check now (tests, operations). */
    watchdog: s.watchdog,
    /** Tokens and addresses for reaching a session's device directly (the data plane): `/df/devtools`, `/df/wd`. */
    dataPlane: s.dataPlane,
    /** `X-Api-Key` verification for the gateway's access control. */
    verifyApiKey: apiKeyVerifier(platform, deps.resolveWorkspace, deps.credentialHeld),
    /** Remote debugging: grants, targets, tunnels and terminals. */
    debug: s.debug,
    /** Files and the app catalog; `files.sweep()` cleans up expired uploads now. */
    files: s.files,
    /** Long-running operations; `operations.reap()` fails those whose process died, now. */
    operations: s.operations,
    /** Listens to agents and starts the reapers. */
    async start(): Promise<void> {
      await s.hub.start();
      await s.hosts.start();
      s.sessions.start();
      s.reservations.start();
      await s.operations.watch();
      s.files.start();
      s.sweeper.start(Math.max(250, Math.min(30_000, Math.floor(config.DF_SESSION_IDLE_TIMEOUT / 4))));
      s.watchdog.start();
      s.testRuns.start();
      await s.health.start(5_000);
      await s.bookingMails.start();
      stopGauges = readFleetGauges(platform.db);
    },
    async stop(): Promise<void> {
      stopGauges();
      await s.bookingMails.stop();
      await s.health.stop();
      await s.testRuns.stop();
      await s.accessibility.stop();
      await s.files.stop();
      await s.operations.stop();
      await s.reservations.stop();
      await s.sweeper.stop();
      await s.watchdog.stop();
      await s.hosts.stop();
      await s.sessions.stop();
      await s.hub.stop();
    },
    /** Registers the features in order: each is a plugin named `df-<feature>` declaring the features it needs. */
    routes: async (app: FastifyInstance) => {
      await registerFeatures(app, features);
    },
  };
}

export type DfModule = ReturnType<typeof createDfModule>;
