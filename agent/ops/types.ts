import type { AgentCommand, DeviceOp } from '#shared/wire/index.js';
import type { DeviceDriver, StagingArea } from '../provider.js';

/**
 * An operation of the table: every op but the lifecycle's own (`prepare`, `release`) and mending. Most act
 * on a device in session; those marked `outsideSession` act on the device itself and run only while no
 * session holds it.
 */
export type SessionOp = Exclude<DeviceOp, 'prepare' | 'release' | 'mend'>;
export type CommandOf<Op extends DeviceOp> = Extract<AgentCommand, { op: Op }>;

/** What an operation works with: the device's driver, its staging area, and the worker's screencast. */
export interface OpContext {
  driver: DeviceDriver;
  sessionId: string;
  /** The device's staging area for uploads (made on first use, cleared at release). */
  staging(): StagingArea;
  /** The worker's screen stream: leased by consumers, stopped when the last lease goes. */
  screencast: {
    lease(command: CommandOf<'screencast'>): Promise<unknown>;
    stop(consumerId: string): Promise<unknown>;
  };
  /** The session's video, encoded on the host from the same screen stream. */
  video: {
    start(recordingId: string, startedAt?: number): Promise<unknown>;
    stop(recordingId: string): Promise<unknown>;
  };
}

/** The optional driver methods (a capability a device may lack). */
export type Capability = {
  [K in keyof DeviceDriver]-?: undefined extends DeviceDriver[K] ? K : never;
}[keyof DeviceDriver];

/** How the agent runs one operation. */
export interface OpHandler<Op extends SessionOp> {
  /**
   * The driver methods it needs, any one of them: a device with none answers `UNSUPPORTED`
   * ("This device does not support <what>") before anything is touched — the one place that says so.
   */
  needs?: { any: readonly Capability[]; what: string };
  /** It acts on the device itself, not for a session: run only while the device is ready (no session, none being set up or released), else `DEVICE_BUSY`. */
  outsideSession?: true;
  /** It acts on the device itself whatever it is doing (in a session or not): it changes nothing a session sees. */
  anyState?: true;
  run(ctx: OpContext, command: CommandOf<Op>): unknown;
}

/** The table of operations: one entry for every op of the wire, so a missing one does not compile. */
export type OpTable = { [Op in SessionOp]: OpHandler<Op> };

/** Helps a family file write its handlers with their commands typed. */
export function handlers<Ops extends SessionOp>(table: { [Op in Ops]: OpHandler<Op> }): { [Op in Ops]: OpHandler<Op> } {
  return table;
}
