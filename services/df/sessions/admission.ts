import { findDevice, type DeviceScope } from '#projections/df-devices/index.js';
import type { Database } from '#shared/db/index.js';
import { found } from '#shared/errors.js';
import { timed } from '#shared/request-context.js';
import type { Caller } from '../http.js';
import type { ReservationGate, SessionFleetHooks } from '../core/session-port.js';
import { requireNotMending, requireUsable } from '../core/device-health.js';

/** A session about to be opened: who asks, on which device, under which id. */
export interface AdmissionRequest {
  caller: Caller;
  deviceId: string;
  sessionId: string;
}

/** The device as the caller may see it. */
export interface AdmittedDevice {
  id: string;
  name: string;
  alias: string | null;
}

/** What one check let through: what it learnt on the way, and how to give back what it took. */
export interface Admitted {
  device?: AdmittedDevice;
  /** The caller's own booking of the device, now. */
  booking?: string;
  /** Gives back what the check took (a quota slot), when a later step refuses or the session never opens. */
  undo?: () => Promise<void>;
}

/**
 * One reason a device may be refused to a caller now. A check refuses by throwing its `AppError`
 * (404, 409 `DEVICE_RESERVED`, 403 `QUOTA_EXCEEDED`, ...); what it lets through may carry an undo.
 */
export interface AdmissionCheck {
  /** Its step in the answer's `Server-Timing`. */
  name: string;
  admit(request: AdmissionRequest): Promise<Admitted | null>;
}

/** A session let in: its device, the caller's booking of it, and how to give back every slot taken. */
export interface Admission {
  device: AdmittedDevice;
  booking: string | null;
  /** Undoes what the checks took, the last first; safe to call more than once. */
  release(): Promise<void>;
}

/**
 * Runs the checks in their order: the first refusal answers, and undoes what the checks before it took.
 * The device decider (one session per device) and the agent (the device prepared) come after, when the
 * session is opened; permission and rate are the gateway's.
 */
export async function admit(checks: readonly AdmissionCheck[], request: AdmissionRequest): Promise<Admission> {
  const taken: Admitted[] = [];
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    let failure: unknown = null;
    for (const admitted of [...taken].reverse()) {
      await admitted.undo?.().catch((err: unknown) => (failure ??= err));
    }
    if (failure !== null) throw failure;
  };
  try {
    for (const check of checks) {
      const admitted = await timed(check.name, () => check.admit(request));
      if (admitted) taken.push(admitted);
    }
  } catch (err) {
    await release();
    throw err;
  }
  const device = taken.find((a) => a.device)?.device;
  if (!device) throw new Error('No admission check found the device: the list must start with the visibility check');
  return { device, booking: taken.find((a) => a.booking)?.booking ?? null, release };
}

export interface SessionAdmissionDeps {
  db: Database;
  scope(caller: Caller): DeviceScope;
  reservations: ReservationGate | null;
  fleet: SessionFleetHooks | null;
}

/**
 * Whether a caller may open a session on a device now, in one ordered list: the device is one the caller
 * may see (else 404), its health does not hold it (409 `DEVICE_UNHEALTHY`) and it is not being mended (409 `DEVICE_MENDING`), no one else holds a booking of it now (409 `DEVICE_RESERVED`), and the company's
 * plan has a slot (403 `QUOTA_EXCEEDED`; the slot is given back when the session does not open).
 */
export function sessionAdmission(deps: SessionAdmissionDeps): AdmissionCheck[] {
  const checks: AdmissionCheck[] = [
    {
      name: 'device',
      admit: async ({ caller, deviceId }) => ({ device: found(await findDevice(deps.db, deps.scope(caller), deviceId), 'Device not found') }),
    },
    {
      // A device its health holds (cooling, charging, quarantined, maintenance) is refused, naming why; so is one being mended (409 DEVICE_MENDING).
      name: 'health',
      admit: async ({ caller, deviceId }) => {
        const device = await findDevice(deps.db, deps.scope(caller), deviceId);
        if (device) requireUsable(device);
        if (device) requireNotMending(device);
        return null;
      },
    },
  ];
  const { reservations, fleet } = deps;
  if (reservations) {
    checks.push({
      name: 'booking',
      admit: async ({ caller, deviceId }) => {
        const booking = await reservations.admit(caller, deviceId);
        return booking ? { booking } : null;
      },
    });
  }
  if (fleet) {
    checks.push({
      name: 'quota',
      admit: async ({ caller, sessionId }) => {
        await fleet.admitSession(caller, sessionId);
        return { undo: () => fleet.sessionClosed(sessionId) };
      },
    });
  }
  return checks;
}
