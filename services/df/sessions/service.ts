import { randomUUID } from 'node:crypto';
import type { DeviceScope } from '#projections/df-devices/index.js';
import { findSession, idleSessions, sessionById, toSessionView, type SessionRecord, type SessionView } from '#projections/df-sessions/index.js';
import { commandContext, fold } from '#shared/es/index.js';
import { found } from '#shared/errors.js';
import { timed } from '#shared/request-context.js';
import { DeviceRequestError, requestDevice, type ControlAction, type AgentCommand, type DeviceOp, type RpcResult } from '#shared/wire/index.js';
import { deviceStream } from '#events/df/devices.js';
import { deviceDecider } from '../devices/index.js';
import { sessionBlobFolder } from '../core/blob-keys.js';
import type { Caller } from '../http.js';
import { deviceFailure } from '../core/device-errors.js';
import { PeriodicJob } from '../core/periodic.js';
import type { Tick } from '#shared/tracing/index.js';
import { VideoRetention } from './video-retention.js';
import { sessionDecider } from './decide.js';
import { sessionStream, type SessionEndReason, type ActivityKind, type ArtifactType, type DebugProtocolName } from '#events/df/sessions.js';
import { admit, sessionAdmission, type AdmissionCheck } from './admission.js';
import type { CreateSessionInput, SessionPort } from '../core/session-port.js';
import { SessionArtifacts } from './artifacts.js';
import { DeviceChannel, type DeviceSession } from './channel.js';
import type { SessionDeps } from './deps.js';
import type { SessionHolders } from '../core/holders.js';
import { SessionRecordings } from './recording.js';
import { SessionVideos } from './video.js';
import { sessionActor, SessionWrites, type SessionActing } from './writes.js';

const STUCK_GRACE_MS = 30_000;

/**
 * Sessions: allocation, preparation, the end and its clean-up, and the idle time-out, here; the
 * session's stream and timeline (`writes.ts`), its device (`channel.ts`), its artifacts
 * (`artifacts.ts`) and its screen recording (`recording.ts`) beside it. Every state change is an event
 * on the session's stream; the device stream is the lock that keeps one session per device.
 */
export class SessionService implements SessionPort {
  private readonly idleSweeper = new PeriodicJob(
    'idle-sessions',
    (tick) => this.sweepIdle(tick),
    (err) => this.deps.logger.warn({ err }, 'idle sweep failed'),
  );
  private readonly writes: SessionWrites;
  private readonly channel: DeviceChannel;
  private readonly artifacts: SessionArtifacts;
  private readonly recordings: SessionRecordings;
  private readonly videos: SessionVideos;
  private readonly videoRetention: VideoRetention;

  constructor(private readonly deps: SessionDeps) {
    this.admission = sessionAdmission({ db: deps.db, scope: (caller) => this.deviceScope(caller), reservations: deps.reservations, fleet: deps.fleet });
    this.writes = new SessionWrites(deps);
    this.channel = new DeviceChannel(deps, this.writes);
    this.artifacts = new SessionArtifacts(deps, this.writes, this.channel);
    this.videos = new SessionVideos(deps);
    this.videoRetention = new VideoRetention(deps, this.writes);
    this.recordings = new SessionRecordings(deps, this.writes, this.artifacts, this.videos);
  }

  /** Whether a caller may open a session on a device now: one ordered list of checks (admission.ts). */
  private readonly admission: readonly AdmissionCheck[];

  /** Who holds each session through a connection (viewers, WebDriver clients). */
  get holders(): SessionHolders | undefined {
    return this.deps.holders;
  }

  /** Which devices the caller may see and use (docs/modules/device-testing.md, "Hosts"). */
  deviceScope(caller: Caller): DeviceScope {
    return { companyId: caller.companyId, workspaceId: caller.workspaceId, userId: caller.userId, sharedPool: this.deps.sharedPool ?? false };
  }

  /** Starts the idle-session sweeper. */
  start(): void {
    this.idleSweeper.start(Math.max(250, Math.min(30_000, Math.floor(this.deps.idleTimeoutMs / 4))));
    this.videos.start().catch((err: unknown) => this.deps.logger.error({ err }, 'taking video segments from the hosts failed to start'));
    this.videoRetention.start();
  }

  /** Runs one sweep of the workspaces' video retention now (tests, operations); the sweeper runs it every minute. */
  sweepVideos(): Promise<void> {
    return this.videoRetention.sweep();
  }

  async stop(): Promise<void> {
    await this.videos.stop();
    await this.videoRetention.stop();
    await this.idleSweeper.stop();
  }

  /**
   * Allocates the device (the device stream refuses a second session with DEVICE_BUSY), records the
   * session, asks the agent to prepare the device, and answers once it is ready; a failed preparation
   * fails the session, releases the device and answers with the reason.
   */
  async create(caller: Caller, input: CreateSessionInput): Promise<SessionView> {
    const sessionId = randomUUID();
    const { device, booking, release } = await admit(this.admission, { caller, deviceId: input.deviceId, sessionId });
    try {
      return await this.open(caller, input, device, booking, sessionId);
    } catch (err) {
      await release();
      throw err;
    }
  }

  private async open(caller: Caller, input: CreateSessionInput, device: { id: string; name: string; alias: string | null }, booking: string | null, sessionId: string): Promise<SessionView> {
    const type = input.type ?? 'manual';
    const context = commandContext(this.deps, sessionActor(caller));
    const allocation = await timed('allocate', () =>
      this.deps.devices.run(
        { type: 'AllocateDevice', deviceId: device.id, sessionId, sessionType: type, ownerId: caller.userId, companyId: caller.companyId, workspaceId: caller.workspaceId },
        context,
      ),
    );
    const hostId = allocation.state.placement!.hostId;
    try {
      await timed('record', () =>
        this.writes.run(
          {
            type: 'RequestSession',
            sessionId,
            session: {
              sessionId,
              deviceId: device.id,
              hostId,
              deviceName: device.alias ?? device.name,
              name: input.name ?? `${device.alias ?? device.name} session`,
              type,
              buildName: input.buildName ?? null,
              metadata: input.metadata ?? {},
              ownerId: caller.userId,
              companyId: caller.companyId,
              workspaceId: caller.workspaceId,
            },
          },
          context,
        ),
      );
    } catch (err) {
      await this.deps.devices.run({ type: 'ReleaseDevice', deviceId: device.id, sessionId }, context);
      throw err;
    }
    const target = { hostId, deviceId: device.id, sessionId };
    let position: bigint | null;
    try {
      const ready = await timed('prepare', () => requestDevice(this.deps.bus, target, { op: 'prepare' }, { timeoutMs: this.deps.prepareTimeoutMs }));
      position = (await timed('started', () => this.writes.run({ type: 'MarkSessionStarted', sessionId, screen: ready.screen }, commandContext(this.deps, sessionActor(caller))))).position;
    } catch (err) {
      const failure = deviceFailure(err, 'prepare');
      const code = err instanceof DeviceRequestError ? err.code : 'INTERNAL';
      this.deps.logger.warn({ err, sessionId, deviceId: device.id }, 'device preparation failed');
      const failed = await this.writes.run({ type: 'MarkSessionFailed', sessionId, code, reason: (failure as Error).message }, commandContext(this.deps, sessionActor(caller)));
      await this.closed(device.id, sessionId, failed.position);
      await requestDevice(this.deps.bus, target, { op: 'release' }, { timeoutMs: this.deps.commandTimeoutMs }).catch(() => undefined);
      const released = await this.deps.devices.run({ type: 'ReleaseDevice', deviceId: device.id, sessionId }, commandContext(this.deps, sessionActor(caller)));
      await this.writes.settle(released.position);
      throw failure;
    }
    if (booking && this.deps.reservations) {
      await this.deps.reservations.opened(caller, device.id, booking, sessionId).catch((err: unknown) => this.deps.logger.warn({ err, sessionId, reservationId: booking }, 'recording the session on the booking failed'));
    }
    await timed('settle', () => this.writes.settle(position));
    const defaults = this.deps.fleet ? await this.deps.fleet.sessionDefaults(caller.workspaceId) : null;
    if (input.record ?? (defaults !== null && (defaults.recordByDefault || (type === 'automation' && defaults.recordAutomation)))) {
      const record = await findSession(this.deps.db, caller, sessionId);
      if (record) await this.recordings.startRecording(record, caller).catch((err: unknown) => this.deps.logger.warn({ err, sessionId }, 'recording from the start did not start'));
    }
    const view = await timed('view', () => findSession(this.deps.db, caller, sessionId));
    return toSessionView(view!);
  }

  /** A session of the caller's workspace, or 404. */
  async get(caller: Pick<Caller, 'companyId' | 'workspaceId'>, sessionId: string): Promise<SessionRecord> {
    return found(await findSession(this.deps.db, caller, sessionId), 'Session not found');
  }

  /** Whether the session is open according to its own stream (the read model may lag). */
  async isOpen(sessionId: string): Promise<boolean> {
    const state = fold(sessionDecider, await this.deps.store.readStream(sessionStream(sessionId)));
    return state.status === 'starting' || state.status === 'active';
  }

  /**
   * Ends a session: stops its recording, records the end, collects the device's logs as an artifact,
   * tells the agent to release the device (a fresh profile next time) and frees the device. Every step
   * is safe to repeat, so an end interrupted by a crash is finished by the next one.
   */
  async end(session: Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'companyId' | 'workspaceId'>, reason: SessionEndReason, actor: string | number): Promise<void> {
    const context = commandContext(this.deps, sessionActor({ actor, companyId: session.companyId, workspaceId: session.workspaceId }));
    await this.recordings.stopRecording(session, actor).catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'stopping the recording failed'));
    const ended = await this.writes.run({ type: 'EndSession', sessionId: session.id, reason }, context);
    await this.deps.fleet?.sessionClosed(session.id);
    await this.deps.hub.closeSession(session.id, reason);
    const target = { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id };
    const device = fold(deviceDecider, await this.deps.store.readStream(deviceStream(session.deviceId)));
    if (device.sessionId === session.id) {
      if (ended.events.length > 0) await this.artifacts.collectLogs(session, target, context);
      const answer = await requestDevice(this.deps.bus, target, { op: 'release' }, { timeoutMs: this.deps.commandTimeoutMs }).catch((err: unknown) =>
        this.deps.logger.warn({ err: (err as Error).message, sessionId: session.id }, 'the agent did not confirm the release; the next prepare starts clean anyway'),
      );
      // A device whose reset to its baseline failed is quarantined before it is given back: never handed out dirty.
      if (answer?.resetFailed) await this.deps.resetFailed?.(session.deviceId, answer.resetFailed).catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'quarantining a device whose reset failed failed'));
      // A device whose sessions keep failing is quarantined before it is given back too (its company's `failedSessionsMax`).
      await this.closed(session.deviceId, session.id, ended.position);
      const released = await this.deps.devices.run({ type: 'ReleaseDevice', deviceId: session.deviceId, sessionId: session.id }, context);
      await this.writes.settle(released.position);
    }
    await this.writes.settle(ended.position);
    await this.deps.holders?.forget(session.id).catch(() => undefined);
  }

  /** Tells device health that a session on the device closed or got its outcome (it counts failed sessions in a row); never fails the caller. */
  private async closed(deviceId: string, sessionId: string, position: bigint | null): Promise<void> {
    if (!this.deps.sessionClosed) return;
    await this.writes.settle(position);
    await this.deps.sessionClosed(deviceId).catch((err: unknown) => this.deps.logger.warn({ err, sessionId }, 'counting the failed sessions of the device failed'));
  }

  /** Ends a session because of its device or host (not the user). */
  async endForDevice(sessionId: string, reason: SessionEndReason): Promise<void> {
    const session = await sessionById(this.deps.db, sessionId);
    if (session) await this.end(session, reason, 'system');
  }

  /** Tells a device to drop a session the platform has already closed. */
  async releaseStale(target: { hostId: string; deviceId: string; sessionId: string }): Promise<void> {
    this.deps.logger.info(target, 'releasing a session the platform no longer has');
    await requestDevice(this.deps.bus, target, { op: 'release' }, { timeoutMs: this.deps.commandTimeoutMs }).catch(() => undefined);
  }

  /**
   * Removes an ended session: its record leaves every list, its timeline and artifacts (screenshots,
   * logs, recordings) are deleted. The removal itself is an event, so the audit history keeps who
   * removed it, when and from where.
   */
  async purge(session: SessionRecord, caller: Caller): Promise<void> {
    const result = await this.writes.run({ type: 'DeleteSession', sessionId: session.id }, commandContext(this.deps, sessionActor(caller)));
    await this.deps.blobs.deleteFolder(sessionBlobFolder(session.companyId, session.id));
    await this.writes.settle(result.position);
  }

  /** Renames, updates metadata, notes or the outcome (an outcome counts for the device's failed sessions in a row). */
  async update(session: SessionRecord, caller: SessionActing, change: Parameters<SessionWrites['update']>[2]): Promise<void> {
    await this.writes.update(session, caller, change);
    if (change.outcome !== undefined) await this.closed(session.deviceId, session.id, null);
  }

  /** Gives a user debug access over `protocols`, or withdraws it; answers whether anything changed. */
  changeDebugAccess(session: Pick<SessionRecord, 'id'>, caller: Caller, userId: number, protocols: DebugProtocolName[], grant: boolean): Promise<boolean> {
    return this.writes.changeDebugAccess(session, caller, userId, protocols, grant);
  }

  /** Records one timeline entry (which also keeps the session from idling out). */
  recordActivity(session: Pick<SessionRecord, 'id'>, caller: SessionActing, kind: ActivityKind, detail: Record<string, unknown>): Promise<{ activityId: string; kind: ActivityKind }> {
    return this.writes.recordActivity(session, caller, kind, detail);
  }

  /** Records several timeline entries with one append, refused as a whole when the session is not active. */
  recordActivities(session: Pick<SessionRecord, 'id'>, caller: SessionActing, entries: { kind: ActivityKind; detail: Record<string, unknown> }[]): Promise<string[]> {
    return this.writes.recordActivities(session, caller, entries);
  }

  /** Sends one command to the session's device. */
  device<Op extends DeviceOp>(session: DeviceSession, command: Extract<AgentCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>> {
    return this.channel.device(session, command, timeoutMs);
  }

  /** Sends an app or file command to the session's device (409 `DEVICE_UNSUPPORTED` for a device without the feature). */
  deviceContent<Op extends DeviceOp>(session: DeviceSession, command: Extract<AgentCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>> {
    return this.channel.deviceContent(session, command, timeoutMs);
  }

  /** Moves bytes to the device's agent in chunks and commits them (413 past `maxBytes`). */
  stageUpload(session: DeviceSession, bytes: AsyncIterable<Buffer>, maxBytes: number, isTruncated?: () => boolean): Promise<{ stageId: string; size: number; sha256: string }> {
    return this.channel.stageUpload(session, bytes, maxBytes, isTruncated);
  }

  /** Reads a device file in chunks, the first before this answers. */
  pullFromDevice(session: DeviceSession, path: string, timeoutMs?: number): Promise<{ size: number; chunks: AsyncGenerator<Buffer> }> {
    return this.channel.pullFromDevice(session, path, timeoutMs);
  }

  /** Performs a control action and records it on the timeline. */
  control(session: SessionRecord, caller: Partial<Caller>, action: ControlAction, via: 'api' | 'viewer'): Promise<RpcResult<'control'>> {
    return this.channel.control(session, caller, action, via);
  }

  /** Captures the screen, keeps it as a screenshot artifact and returns the image. */
  screenshot(session: SessionRecord, caller: Caller, requested?: 'png' | 'jpeg'): Promise<{ contentType: string; data: Buffer; artifactId: string }> {
    return this.artifacts.screenshot(session, caller, requested);
  }

  /** Stores bytes as an artifact of the session. */
  storeArtifact(
    session: Pick<SessionRecord, 'id' | 'companyId'>,
    caller: SessionActing,
    artifact: { artifactId: string; type: ArtifactType; name: string; contentType: string; data: Buffer; size?: number },
  ): Promise<void> {
    return this.artifacts.storeArtifact(session, caller, artifact);
  }

  /** Live device logs of an open session; the stored log artifact of an ended one. */
  logs(session: SessionRecord, afterSeq: number): Promise<RpcResult<'logs'>> {
    return this.artifacts.logs(session, afterSeq);
  }

  /** Starts recording the screen (a recording running elsewhere is answered with its id). */
  startRecording(session: SessionRecord, caller: Caller): Promise<string> {
    return this.recordings.startRecording(session, caller);
  }

  /** Stops a running recording and stores its manifest as a recording artifact. */
  stopRecording(session: Pick<SessionRecord, 'id' | 'companyId' | 'workspaceId'>, actor: string | number): ReturnType<SessionRecordings['stopRecording']> {
    return this.recordings.stopRecording(session, actor);
  }

  /** The recording state as any replica sees it. */
  recordingStatus(session: SessionRecord): ReturnType<SessionRecordings['recordingStatus']> {
    return this.recordings.recordingStatus(session);
  }

  private async sweepIdle(tick: Tick): Promise<void> {
    const now = this.deps.now().getTime();
    for (const session of await idleSessions(this.deps.db, new Date(now - this.deps.idleTimeoutMs))) {
      // A session still being prepared is not idle; its creation answers either way.
      if (session.status !== 'active') continue;
      // A workspace may keep its sessions longer than the module's default (its session defaults).
      const idleMs = this.deps.fleet ? await this.deps.fleet.idleTimeoutMs(session.workspaceId) : this.deps.idleTimeoutMs;
      if (Date.parse(session.lastActivityAt) > now - idleMs) continue;
      tick.count('sessions.idle');
      await tick.work(async () => {
        this.deps.logger.info({ sessionId: session.id }, 'ending an idle session');
        await this.end(session, 'idle-timeout', 'system').catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'ending an idle session failed'));
      });
    }
    // A session left `starting` far past the prepare time-out lost its creator (a crash mid-create).
    for (const session of await idleSessions(this.deps.db, new Date(now - this.deps.prepareTimeoutMs - STUCK_GRACE_MS))) {
      if (session.status !== 'starting') continue;
      tick.count('sessions.abandoned');
      await tick.work(() => this.end(session, 'prepare-abandoned', 'system')).catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'ending an abandoned session failed'));
    }
  }
}
