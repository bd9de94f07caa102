import type { Logger } from 'pino';
import type { BusMessage, BusSubscription, MessageBus } from '#shared/bus/index.js';
import {
  WorkerState,
  HealthReport,
  PROTOCOL_VERSION,
  RpcRequest,
  encode,
  encodeFrame,
  fail,
  ok,
  subjects,
  Reply,
  type AgentCommand,
  type FailCode,
} from '#shared/wire/index.js';
import { missingCapability, OPS, type CommandOf, type OpContext, type OpHandler, type SessionOp } from './ops/index.js';
import { DriverError, StagingArea, type DeviceDriver } from './provider.js';
import { inChildSpan, inTick, setIntervalOutsideTrace, SpanKind, UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { DriverFrame, ReleaseOutcome } from './capabilities.js';
import { DeviceVideo } from './video/recorder.js';
import type { VideoSettings } from './video/settings.js';

const LEASE_CHECK_MS = 1_000;

class CommandTimeout extends Error {}

/**
 * One worker per device (after STF): its own subscription, its own command queue and its own time-outs,
 * so a wedged device fails its own requests and never stalls the host or another device.
 */
export class DeviceWorker {
  private state: WorkerState['state'] = 'ready';
  private sessionId: string | null = null;
  private detail: string | undefined;
  private tail: Promise<void> = Promise.resolve();
  private subscription: BusSubscription | null = null;
  private readonly leases = new Map<string, number>();
  private leaseTimer: NodeJS.Timeout | null = null;
  private frameSeq = 0;
  /** The stream's newest frame: a lease that joins a running stream gets it at once (a still screen sends no other). */
  private lastFrame: DriverFrame | null = null;
  private stopped = false;
  private staging: StagingArea | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  private readingHealth = false;
  private readonly video: DeviceVideo;
  private streaming = false;

  constructor(
    readonly driver: DeviceDriver,
    private readonly deps: { bus: MessageBus; hostId: string; logger: Logger; onStateChange: () => void; healthIntervalMs?: number; video?: VideoSettings },
  ) {
    this.video = new DeviceVideo({ bus: deps.bus, hostId: deps.hostId, deviceId: () => this.deviceId, logger: deps.logger, settings: deps.video });
    driver.onBroken((reason) => {
      if (this.state !== 'in_session' && this.state !== 'preparing') return;
      this.deps.logger.warn({ deviceId: this.deviceId, reason }, 'device broke during a session');
      this.setState('broken', reason);
    });
  }

  get deviceId(): string {
    return this.driver.info.deviceId;
  }

  /** What the device is doing, for hello and heartbeats. */
  snapshot(): WorkerState {
    return { deviceId: this.deviceId, state: this.state, sessionId: this.sessionId, ...(this.detail ? { detail: this.detail } : {}) };
  }

  /** Starts answering requests on the device's own subject. */
  async start(): Promise<void> {
    this.subscription = await this.deps.bus.subscribe(subjects.rpc(this.deps.hostId, this.deviceId), (msg) => {
      // Queued, not awaited: the subscription stays free while the device works.
      this.enqueue(msg);
    });
    if (this.deps.healthIntervalMs && missingCapability(this.driver, 'health') === null) {
      const reading = () => void inTick('agent.health-reading', (tick) => this.reportHealth(tick), { 'device.id': this.deviceId });
      this.healthTimer = setIntervalOutsideTrace(reading, this.deps.healthIntervalMs);
      this.healthTimer.unref();
      reading();
    }
  }

  /**
   * Reads the device's health and publishes it to the service (`HealthReport`): on the schedule (each a
   * trace of its own, `agent.health-reading`) and at each session's end. Skipped while a session is being
   * prepared or released and while a reading is under way; a failed reading is logged, never thrown.
   */
  async reportHealth(tick: Tick = UNTRACED): Promise<void> {
    if (this.stopped || this.readingHealth || this.state === 'preparing' || this.state === 'releasing' || !this.driver.readHealth) return;
    const readHealth = this.driver.readHealth.bind(this.driver);
    this.readingHealth = true;
    try {
      await tick.work(async () => {
        const sample = await readHealth();
        if (this.stopped) return;
        const data = encode(HealthReport, { protocol: PROTOCOL_VERSION, hostId: this.deps.hostId, deviceId: this.deviceId, sample });
        await this.deps.bus.publish(subjects.health(this.deps.hostId), data);
      });
    } catch (err) {
      this.deps.logger.debug({ err: (err as Error).message, deviceId: this.deviceId }, 'health reading failed');
    } finally {
      this.readingHealth = false;
    }
  }

  /** Stops answering and tears the device down. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = null;
    await this.subscription?.unsubscribe();
    this.subscription = null;
    this.clearLeases();
    await this.video.finish().catch(() => undefined);
    await this.driver.close().catch(() => undefined);
  }

  private enqueue(msg: BusMessage): void {
    let request: RpcRequest;
    try {
      const raw = JSON.parse(new TextDecoder().decode(msg.data)) as { protocol?: unknown };
      if (raw.protocol !== PROTOCOL_VERSION) {
        void this.reply(msg, fail('PROTOCOL_MISMATCH', `This agent speaks protocol ${PROTOCOL_VERSION}, the request ${String(raw.protocol)}`));
        return;
      }
      request = RpcRequest.parse(raw);
    } catch (err) {
      void this.reply(msg, fail('BAD_REQUEST', err instanceof Error ? err.message.slice(0, 500) : 'invalid request'));
      return;
    }
    if (request.deviceId !== this.deviceId) {
      void this.reply(msg, fail('UNKNOWN_DEVICE', `Device ${request.deviceId} is not on this worker`));
      return;
    }
    // A long poll of a test run's events touches nothing of the device and may wait for news: it runs
    // beside the queue, so the device's other commands (its screen, the session's release) never wait on it.
    if (request.command.op === 'instrumentPoll') void this.run(msg, request);
    else this.tail = this.tail.then(() => this.run(msg, request));
  }

  private async run(msg: BusMessage, request: RpcRequest): Promise<void> {
    if (this.stopped) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CommandTimeout()), request.timeoutMs);
    });
    // The command's span on the device, in the trace of the request that sent it (continued by the bus).
    const work = inChildSpan(`device ${request.command.op}`, { 'device.command': request.command.op }, () => this.execute(request), SpanKind.INTERNAL);
    try {
      const data = await Promise.race([work, timeout]);
      await this.reply(msg, ok(data));
    } catch (err) {
      const [code, message] = this.failureOf(err, request);
      if (err instanceof CommandTimeout) {
        work.catch(() => undefined);
        if (request.command.op === 'prepare') this.abandonPrepare();
      }
      await this.reply(msg, fail(code, message));
    } finally {
      clearTimeout(timer);
    }
  }

  private failureOf(err: unknown, request: RpcRequest): [FailCode, string] {
    if (err instanceof CommandTimeout) return ['TIMEOUT', `${request.command.op} took longer than ${request.timeoutMs} ms`];
    if (err instanceof DriverError) return [err.code, err.message];
    if (err instanceof WorkerRefusal) return [err.code, err.message];
    this.deps.logger.warn({ err, deviceId: this.deviceId, op: request.command.op }, 'device command failed');
    return ['DEVICE_ERROR', err instanceof Error ? err.message.slice(0, 500) : 'device command failed'];
  }

  private async execute(request: RpcRequest): Promise<unknown> {
    const command: AgentCommand = request.command;
    switch (command.op) {
      case 'prepare':
        return this.prepare(request);
      case 'release':
        return this.release(request.sessionId);
      case 'mend':
        return this.mend(command);
      default:
        break;
    }
    const handler = OPS[command.op] as OpHandler<SessionOp> | undefined;
    if (handler?.outsideSession) {
      // The device's own, not a session's: never while a session holds it or it is being set up or released.
      if (this.state !== 'ready') throw new WorkerRefusal('DEVICE_BUSY', `The device is ${this.state}${this.sessionId ? ` (session ${this.sessionId})` : ''}`);
    } else if (!handler?.anyState && (this.state !== 'in_session' || this.sessionId !== request.sessionId)) {
      throw new WorkerRefusal('NOT_PREPARED', `The device is not in session ${request.sessionId}`);
    }
    if (!handler) throw new WorkerRefusal('BAD_REQUEST', `Unknown op ${command.op}`);
    // The one place a missing capability is said: before anything of the device is touched.
    const missing = missingCapability(this.driver, command.op);
    if (missing) throw new WorkerRefusal('UNSUPPORTED', missing);
    return handler.run(this.opContext(request.sessionId), command as CommandOf<SessionOp>);
  }

  private opContext(sessionId: string): OpContext {
    return {
      driver: this.driver,
      sessionId,
      staging: () => (this.staging ??= new StagingArea(this.deviceId)),
      screencast: {
        lease: (command) => this.lease(command),
        stop: async (consumerId) => {
          this.leases.delete(consumerId);
          if (this.leases.size === 0) await this.stopStreaming();
          return { streaming: this.leases.size > 0 };
        },
      },
      video: {
        start: async (recordingId, startedAt) => {
          await this.video.start(sessionId, recordingId, startedAt);
          try {
            await this.ensureStreaming({ quality: 80 });
          } catch (err) {
            await this.video.finish().catch(() => undefined);
            throw err;
          }
          return { recordingId, format: 'mp4' as const };
        },
        stop: async (recordingId) => {
          const done = await this.video.finish(recordingId);
          if (this.leases.size === 0) await this.stopStreaming();
          return { recordingId, segments: done?.segments ?? 0, bytes: done?.bytes ?? 0, durationMs: done?.durationMs ?? 0 };
        },
      },
    };
  }

  private async prepare(request: RpcRequest): Promise<unknown> {
    if (this.state === 'in_session' && this.sessionId === request.sessionId) {
      return { sessionId: request.sessionId, screen: this.driver.info.screen };
    }
    if ((this.state === 'in_session' || this.state === 'preparing') && this.sessionId !== request.sessionId) {
      throw new WorkerRefusal('DEVICE_BUSY', `The device is in session ${this.sessionId}`);
    }
    this.sessionId = request.sessionId;
    this.setState('preparing');
    const progress = (step: string) => {
      if (request.progress) {
        const data = encode(Reply, { type: 'progress', requestId: request.requestId, step });
        void this.deps.bus.publish(subjects.progress(this.deps.hostId, request.requestId), data).catch(() => undefined);
      }
    };
    try {
      const screen = await this.driver.prepare(progress);
      this.setState('in_session');
      return { sessionId: request.sessionId, screen };
    } catch (err) {
      this.sessionId = null;
      this.setState('broken', err instanceof Error ? err.message.slice(0, 200) : 'prepare failed');
      await this.driver.release().catch(() => undefined);
      this.setState('ready');
      throw err;
    }
  }

  private abandonPrepare(): void {
    this.sessionId = null;
    this.setState('broken', 'prepare timed out');
    void this.driver.release().then(
      () => this.setState('ready'),
      () => undefined,
    );
  }

  private async release(sessionId: string): Promise<unknown> {
    // Idempotent: releasing a session the device no longer holds changes nothing.
    if (this.sessionId !== sessionId) return { sessionId };
    this.setState('releasing');
    this.clearLeases();
    await this.video.finish().catch((err: unknown) => this.deps.logger.warn({ err, sessionId }, 'ending the session video failed'));
    this.streaming = false;
    this.lastFrame = null;
    let outcome: void | ReleaseOutcome;
    try {
      await this.staging?.clear().catch(() => undefined);
      outcome = await this.driver.release();
    } finally {
      this.sessionId = null;
      this.setState('ready');
    }
    // Every session's end is a moment to look at the device's health (a hot or drained phone is held).
    void this.reportHealth();
    return { sessionId, ...(outcome?.resetFailed ? { resetFailed: outcome.resetFailed } : {}) };
  }

  /**
   * Mends the device outside any session (the service asks when its readings say it is unwell): refused
   * while the device is in a session or being set up. The answer carries each step in order, which the
   * service records before it decides on a quarantine (one path: the steps cannot overtake the decision);
   * each step begun is published as it starts. A session asked for meanwhile waits behind it.
   */
  private async mend(command: Extract<AgentCommand, { op: 'mend' }>): Promise<unknown> {
    if (this.state !== 'ready') throw new WorkerRefusal('DEVICE_BUSY', `The device is ${this.state}${this.sessionId ? ` (session ${this.sessionId})` : ''}: it is not mended now`);
    if (!this.driver.mend) throw new WorkerRefusal('UNSUPPORTED', 'This device does not support mending');
    const begin = (step: NonNullable<HealthReport['mendingStep']>['step']) => void this.deps.bus.publish(subjects.health(this.deps.hostId), encode(HealthReport, { protocol: PROTOCOL_VERSION, hostId: this.deps.hostId, deviceId: this.deviceId, mendingStep: { step, at: new Date().toISOString() } })).catch(() => undefined);
    const answer = await this.driver.mend({ storageMinMb: command.storageMinMb, rebootAllowed: command.rebootAllowed, ...(command.helpersOnly ? { helpersOnly: true } : {}) }, (step) => this.deps.logger.info({ deviceId: this.deviceId, ...step }, 'mending step'), begin);
    void this.reportHealth(); // the device as mending left it (back from a reboot, its storage freed), at once
    return answer;
  }

  private async lease(command: Extract<AgentCommand, { op: 'screencast' }>): Promise<unknown> {
    const joining = this.streaming && !this.leases.has(command.consumerId);
    this.leases.set(command.consumerId, Date.now() + command.leaseMs);
    this.leaseTimer ??= setIntervalOutsideTrace(() => void inTick('agent.lease-expiry', (tick) => this.expireLeases(tick), { 'device.id': this.deviceId }), LEASE_CHECK_MS);
    this.leaseTimer.unref();
    await this.ensureStreaming({ quality: command.quality ?? 60, ...(command.maxWidth ? { maxWidth: command.maxWidth } : {}), ...(command.maxHeight ? { maxHeight: command.maxHeight } : {}) });
    // The stream ran already (for the session's video, or another viewer): a still screen sends no new
    // frame, so the newest one goes out again for the viewer that just came.
    if (joining && this.lastFrame) await this.publishFrame(this.lastFrame);
    return { streaming: true };
  }

  /**
   * Starts the device's screen stream unless it runs: one stream for every viewer's lease and the
   * session's video. A frame goes on the bus only while a lease asks for it, and to the video encoder
   * only while a video runs.
   */
  private async ensureStreaming(options: { quality: number; maxWidth?: number; maxHeight?: number }): Promise<void> {
    if (this.streaming) return;
    this.streaming = true;
    const sessionId = this.sessionId;
    try {
      await this.driver.startScreencast(options, async (frame) => {
        this.lastFrame = frame;
        if (this.video.active) this.video.frame(frame.jpeg);
        if (this.leases.size === 0 || !sessionId) return;
        await this.publishFrame(frame, sessionId);
      });
    } catch (err) {
      this.streaming = false;
      throw err;
    }
  }

  /** Puts one frame of the session's screen on the bus, for the viewers' leases. */
  private async publishFrame(frame: DriverFrame, sessionId = this.sessionId): Promise<void> {
    if (!sessionId) return;
    this.frameSeq += 1;
    const { data, headers } = encodeFrame({ sessionId, seq: this.frameSeq, capturedAt: frame.capturedAt, width: frame.width, height: frame.height, jpeg: frame.jpeg });
    await this.deps.bus.publish(subjects.frames(this.deps.hostId, this.deviceId), data, headers);
  }

  /** Drops the viewers' leases that ran out; the last gone, the screen stream stops (a span when any went: `agent.lease-expiry`). */
  private async expireLeases(tick: Tick): Promise<void> {
    const now = Date.now();
    for (const [consumer, expiresAt] of this.leases) if (expiresAt <= now && this.leases.delete(consumer)) tick.count('leases.expired');
    if (this.leases.size === 0) {
      this.tail = this.tail.then(() => tick.work(() => this.stopStreaming()));
    }
  }

  /** Stops the screen stream once nobody leases it and no video records it. */
  private async stopStreaming(): Promise<void> {
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.leaseTimer = null;
    if (this.leases.size === 0 && !this.video.active) {
      this.streaming = false;
      this.lastFrame = null;
      await this.driver.stopScreencast().catch(() => undefined);
    }
  }

  private clearLeases(): void {
    this.leases.clear();
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.leaseTimer = null;
  }

  private setState(state: WorkerState['state'], detail?: string): void {
    if (this.state === state && this.detail === detail) return;
    this.state = state;
    this.detail = detail;
    this.deps.onStateChange();
  }

  private async reply(msg: BusMessage, data: Uint8Array): Promise<void> {
    try {
      await this.deps.bus.respond(msg, data);
    } catch (err) {
      this.deps.logger.debug({ err, deviceId: this.deviceId }, 'reply could not be sent');
    }
  }
}

/** A request the worker refuses before the device is touched. */
class WorkerRefusal extends Error {
  constructor(
    readonly code: FailCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorkerRefusal';
  }
}
