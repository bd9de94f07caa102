import type { Logger } from 'pino';
import type { BlobStore } from '#shared/blob/index.js';
import type { MessageBus } from '#shared/bus/index.js';
import type { Database } from '#shared/db/index.js';
import type { EventStore } from '#shared/es/index.js';
import type { ReadModelWaiter } from '../../platform.js';
import type { DeviceCommands } from '../devices/index.js';
import type { ScreenHub } from '../core/screen-hub.js';
import type { SessionHolders } from '../core/holders.js';
import type { ReservationGate, SessionFleetHooks } from '../core/session-port.js';

/** What the sessions service is built with; each of its parts (writes, device channel, artifacts, recording) takes what it uses. */
export interface SessionDeps {
  store: EventStore;
  db: Database;
  bus: MessageBus;
  blobs: BlobStore;
  logger: Logger;
  readModels: ReadModelWaiter;
  devices: DeviceCommands;
  hub: ScreenHub;
  /** Device bookings, when the module has them: a booked device opens only for its holder. */
  reservations: ReservationGate | null;
  /** Plan limits and workspace defaults, when the module has them. */
  fleet: SessionFleetHooks | null;
  now: () => Date;
  prepareTimeoutMs: number;
  commandTimeoutMs: number;
  idleTimeoutMs: number;
  /** Typed text arriving within this long of the end of the previous text (same typist) joins its timeline entry (`DF_TYPING_BURST`). */
  typingBurstMs: number;
  /** Who holds each session through a connection (the busy-device watchdog reads it). */
  holders?: SessionHolders;
  /** A device's reset to its baseline after a session failed (`reason`): quarantines it (device health). */
  resetFailed?: (deviceId: string, reason: string) => Promise<void>;
  /**
   * A session on the device closed (ended, or could not be prepared), or a session got its outcome:
   * device health counts the device's failed sessions in a row (and may quarantine it). Called before the
   * device is freed, once the sessions' read model shows the end.
   */
  sessionClosed?: (deviceId: string) => Promise<void>;
  /** Whether the operator's shared pool of hosts is on (its devices are seen by every company). */
  sharedPool?: boolean;
}
