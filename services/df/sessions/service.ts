import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DeviceScope } from '#projections/df-devices/index.js';
import { findSession, idleSessions, listArtifacts, sessionById, toSessionView, type SessionRecord, type SessionView } from '#projections/df-sessions/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import { NoRespondersError, type MessageBus } from '#shared/bus/index.js';
import type { Database } from '#shared/db/index.js';
import { commandContext, fold, handleCommand, type CommandActor, type CommandContext } from '#shared/es/decider.js';
import type { EventStore } from '#shared/es/types.js';
import { AppError, found } from '#shared/errors.js';
import { timed } from '#shared/request-context.js';
import { DeviceRequestError, requestDevice, type ControlAction, type DeviceCommand, type DeviceOp, type RpcResult } from '#shared/wire/index.js';
import type { ReadModelWaiter } from '../../platform.js';
import { deviceStream } from '#events/df/devices.js';
import { deviceDecider, type DeviceCommands } from '../devices/index.js';
import { artifactKey, sessionBlobFolder } from '../core/blob-keys.js';
import type { Caller } from '../core/caller.js';
import { deviceFailure } from '../core/device-errors.js';
import { PeriodicJob } from '../core/periodic.js';
import { recordingPingSubject, recordingStopSubject, type RecordingManifest, type ScreenHub } from '../core/screen-hub.js';
import { sessionDecider, typedText, type SessionCommand } from './decide.js';
import { sessionStream, type SessionEndReason, type ActivityKind, type ArtifactType, type DebugProtocolName, type SessionOutcome } from '#events/df/sessions.js';
import { STAGE_CHUNK_BYTES } from '#shared/wire/messages.js';
import { userName } from '../core/session-access.js';
import { admit, sessionAdmission, type AdmissionCheck } from './admission.js';
import type { CreateSessionInput, ReservationGate, SessionFleetHooks, SessionPort } from '../core/session-port.js';

const READ_MODELS = ['df-sessions', 'df-devices'];
const LOGS_TIMEOUT_MS = 5_000;
const STUCK_GRACE_MS = 30_000;
// Another replica that records a session answers a stop request within this time, or is gone.
const REMOTE_STOP_TIMEOUT_MS = 10_000;

/**
 * Sessions: allocation, preparation, the end and its clean-up, device commands with their activity
 * record, artifacts, and the idle time-out. Every state change is an event on the session's stream;
 * the device stream is the lock that keeps one session per device.
 */
export class SessionService implements SessionPort {
  private readonly idleSweeper = new PeriodicJob(
    () => this.sweepIdle(),
    (err) => this.deps.logger.warn({ err }, 'idle sweep failed'),
  );

  constructor(
    private readonly deps: {
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
      /** Whether the operator's shared pool of hosts is on (its devices are seen by every company). */
      sharedPool?: boolean;
    },
  ) {
    this.admission = sessionAdmission({ db: deps.db, scope: (caller) => this.deviceScope(caller), reservations: deps.reservations, fleet: deps.fleet });
  }

  /** Whether a caller may open a session on a device now: one ordered list of checks (admission.ts). */
  private readonly admission: readonly AdmissionCheck[];

  /** Which devices the caller may see and use (docs/modules/device-testing.md, "Hosts"). */
  deviceScope(caller: Caller): DeviceScope {
    return { companyId: caller.companyId, workspaceId: caller.workspaceId, userId: caller.userId, sharedPool: this.deps.sharedPool ?? false };
  }

  /** Starts the idle-session sweeper. */
  start(): void {
    this.idleSweeper.start(Math.max(250, Math.min(30_000, Math.floor(this.deps.idleTimeoutMs / 4))));
  }

  stop(): Promise<void> {
    return this.idleSweeper.stop();
  }

  private actor(caller: Partial<Caller> & { actor?: string | number }): CommandActor {
    return { actorId: caller.actor ?? caller.userId ?? null, companyId: caller.companyId ?? null, workspaceId: caller.workspaceId ?? null };
  }

  private async session(command: SessionCommand & { sessionId: string }, context: CommandContext) {
    return handleCommand({ store: this.deps.store, streamId: sessionStream(command.sessionId), decider: sessionDecider, command, context, maxAttempts: 10 });
  }

  private async settle(position: bigint | null): Promise<void> {
    if (position !== null) await this.deps.readModels.waitFor(position, { names: READ_MODELS });
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
    const context = commandContext(this.deps, this.actor(caller));
    const allocation = await timed('allocate', () =>
      this.deps.devices.run(
        { type: 'AllocateDevice', deviceId: device.id, sessionId, sessionType: type, ownerId: caller.userId, companyId: caller.companyId, workspaceId: caller.workspaceId },
        context,
      ),
    );
    const hostId = allocation.state.placement!.hostId;
    try {
      await timed('record', () =>
        this.session(
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
      position = (await timed('started', () => this.session({ type: 'MarkSessionStarted', sessionId, screen: ready.screen }, commandContext(this.deps, this.actor(caller))))).position;
    } catch (err) {
      const failure = deviceFailure(err, 'prepare');
      const code = err instanceof DeviceRequestError ? err.code : 'INTERNAL';
      this.deps.logger.warn({ err, sessionId, deviceId: device.id }, 'device preparation failed');
      await this.session({ type: 'MarkSessionFailed', sessionId, code, reason: (failure as Error).message }, commandContext(this.deps, this.actor(caller)));
      await requestDevice(this.deps.bus, target, { op: 'release' }, { timeoutMs: this.deps.commandTimeoutMs }).catch(() => undefined);
      const released = await this.deps.devices.run({ type: 'ReleaseDevice', deviceId: device.id, sessionId }, commandContext(this.deps, this.actor(caller)));
      await this.settle(released.position);
      throw failure;
    }
    if (booking && this.deps.reservations) {
      await this.deps.reservations.opened(caller, device.id, booking, sessionId).catch((err: unknown) => this.deps.logger.warn({ err, sessionId, reservationId: booking }, 'recording the session on the booking failed'));
    }
    await timed('settle', () => this.settle(position));
    const defaults = this.deps.fleet ? await this.deps.fleet.sessionDefaults(caller.workspaceId) : null;
    if (input.record ?? (defaults !== null && (defaults.recordByDefault || (type === 'automation' && defaults.recordAutomation)))) {
      const record = await findSession(this.deps.db, caller, sessionId);
      if (record) await this.startRecording(record, caller).catch((err: unknown) => this.deps.logger.warn({ err, sessionId }, 'recording from the start did not start'));
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
    const context = commandContext(this.deps, this.actor({ actor, companyId: session.companyId, workspaceId: session.workspaceId }));
    await this.stopRecording(session, actor).catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'stopping the recording failed'));
    const ended = await this.session({ type: 'EndSession', sessionId: session.id, reason }, context);
    await this.deps.fleet?.sessionClosed(session.id);
    await this.deps.hub.closeSession(session.id, reason);
    const target = { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id };
    const device = fold(deviceDecider, await this.deps.store.readStream(deviceStream(session.deviceId)));
    if (device.sessionId === session.id) {
      if (ended.events.length > 0) await this.collectLogs(session, target, context);
      await requestDevice(this.deps.bus, target, { op: 'release' }, { timeoutMs: this.deps.commandTimeoutMs }).catch((err: unknown) =>
        this.deps.logger.warn({ err: (err as Error).message, sessionId: session.id }, 'the agent did not confirm the release; the next prepare starts clean anyway'),
      );
      const released = await this.deps.devices.run({ type: 'ReleaseDevice', deviceId: session.deviceId, sessionId: session.id }, context);
      await this.settle(released.position);
    }
    await this.settle(ended.position);
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
    const result = await this.session({ type: 'DeleteSession', sessionId: session.id }, commandContext(this.deps, this.actor(caller)));
    await this.deps.blobs.deleteFolder(sessionBlobFolder(session.companyId, session.id));
    await this.settle(result.position);
  }

  /** Renames, updates metadata or notes. */
  async update(
    session: SessionRecord,
    caller: Caller,
    change: { name?: string; metadata?: Record<string, unknown>; notes?: string; outcome?: { outcome: SessionOutcome; reason: string | null } },
  ): Promise<void> {
    let position: bigint | null = null;
    if (change.outcome !== undefined) position = (await this.session({ type: 'SetSessionOutcome', sessionId: session.id, ...change.outcome }, commandContext(this.deps, this.actor(caller)))).position ?? position;
    if (change.name !== undefined) position = (await this.session({ type: 'RenameSession', sessionId: session.id, name: change.name }, commandContext(this.deps, this.actor(caller)))).position ?? position;
    if (change.metadata !== undefined)
      position = (await this.session({ type: 'UpdateSessionMetadata', sessionId: session.id, metadata: change.metadata }, commandContext(this.deps, this.actor(caller)))).position ?? position;
    if (change.notes !== undefined) position = (await this.session({ type: 'UpdateSessionNotes', sessionId: session.id, notes: change.notes }, commandContext(this.deps, this.actor(caller)))).position ?? position;
    await this.settle(position);
  }

  /**
   * Gives a user debug access over `protocols` (an active session only), or withdraws it; answers
   * whether anything changed. The timeline and the audit history record either.
   */
  async changeDebugAccess(session: Pick<SessionRecord, 'id'>, caller: Caller, userId: number, protocols: DebugProtocolName[], grant: boolean): Promise<boolean> {
    const command: SessionCommand = grant
      ? { type: 'GrantDebugAccess', sessionId: session.id, userId, protocols }
      : { type: 'WithdrawDebugAccess', sessionId: session.id, userId, protocols };
    const result = await this.session(command, commandContext(this.deps, this.actor(caller)));
    await this.settle(result.position);
    return result.events.length > 0;
  }

  /** Records one timeline entry (which also keeps the session from idling out). */
  async recordActivity(session: Pick<SessionRecord, 'id'>, caller: Partial<Caller> & { actor?: string | number }, kind: ActivityKind, detail: Record<string, unknown>): Promise<{ activityId: string; kind: ActivityKind }> {
    const activityId = randomUUID();
    const result = await this.session({ type: 'RecordActivity', sessionId: session.id, activityId, kind, detail }, commandContext(this.deps, this.actor(caller)));
    await this.settle(result.position);
    return { activityId, kind };
  }

  /**
   * Records several timeline entries with one append (a batch of automation test events): each is a
   * `RecordActivity` decided in turn by the session's decider, so the batch is refused as a whole when
   * the session is not active.
   */
  async recordActivities(session: Pick<SessionRecord, 'id'>, caller: Partial<Caller> & { actor?: string | number }, entries: { kind: ActivityKind; detail: Record<string, unknown> }[]): Promise<string[]> {
    const ids = entries.map(() => randomUUID());
    const commands: SessionCommand[] = entries.map((e, i) => ({ type: 'RecordActivity', sessionId: session.id, activityId: ids[i]!, kind: e.kind, detail: e.detail }));
    const batch = {
      ...sessionDecider,
      decide: (all: SessionCommand[], state: ReturnType<typeof sessionDecider.initialState>) => {
        let current = state;
        return all.flatMap((command) => {
          const events = sessionDecider.decide(command, current);
          for (const e of events) current = sessionDecider.evolve(current, e);
          return events;
        });
      },
    };
    const result = await handleCommand({ store: this.deps.store, streamId: sessionStream(session.id), decider: batch, command: commands, context: commandContext(this.deps, this.actor(caller)), maxAttempts: 10 });
    await this.settle(result.position);
    return ids;
  }

  /** Sends one command to the session's device. */
  async device<Op extends DeviceOp>(session: Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'status'>, command: Extract<DeviceCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    try {
      return await requestDevice(this.deps.bus, { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id }, command, { timeoutMs: timeoutMs ?? this.deps.commandTimeoutMs });
    } catch (err) {
      throw deviceFailure(err, 'command');
    }
  }

  /**
   * Sends an app or file command to the session's device: a device without the feature answers 409
   * `DEVICE_UNSUPPORTED`, a path or app the device does not have 404; the rest as `device` does.
   */
  async deviceContent<Op extends DeviceOp>(session: Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'status'>, command: Extract<DeviceCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    try {
      return await requestDevice(this.deps.bus, { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id }, command, { timeoutMs: timeoutMs ?? this.deps.commandTimeoutMs });
    } catch (err) {
      if (err instanceof DeviceRequestError && err.code === 'UNSUPPORTED') throw new AppError('DEVICE_UNSUPPORTED', err.message, { cause: err });
      throw deviceFailure(err, 'command');
    }
  }

  /**
   * Moves bytes to the device's agent in chunks (each well under the bus's payload limit) and commits
   * them; answers the staged upload for `installApp` / `pushFile`. More than `maxBytes` is 413.
   */
  async stageUpload(session: Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'status'>, bytes: AsyncIterable<Buffer>, maxBytes: number, isTruncated: () => boolean = () => false): Promise<{ stageId: string; size: number; sha256: string }> {
    const { stageId } = await this.deviceContent(session, { op: 'stageBegin', size: maxBytes });
    const hash = createHash('sha256');
    let offset = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const send = async (data: Buffer) => {
      await this.deviceContent(session, { op: 'stageChunk', stageId, offset, base64: data.toString('base64') });
      offset += data.length;
    };
    for await (const chunk of bytes) {
      if (offset + pendingBytes + chunk.length > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
      hash.update(chunk);
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= STAGE_CHUNK_BYTES) {
        const all = Buffer.concat(pending);
        await send(all.subarray(0, STAGE_CHUNK_BYTES));
        pending = [all.subarray(STAGE_CHUNK_BYTES)];
        pendingBytes = all.length - STAGE_CHUNK_BYTES;
      }
    }
    if (isTruncated()) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
    if (pendingBytes > 0) await send(Buffer.concat(pending));
    const sha256 = hash.digest('hex');
    await this.deviceContent(session, { op: 'stageCommit', stageId, size: offset, sha256 });
    return { stageId, size: offset, sha256 };
  }

  /**
   * Reads a device file in chunks: the first chunk is read before this answers (so a missing file is
   * a 404 before any byte is sent), the rest as the consumer pulls them.
   */
  async pullFromDevice(session: Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'status'>, path: string, timeoutMs?: number): Promise<{ size: number; chunks: AsyncGenerator<Buffer> }> {
    const first = await this.deviceContent(session, { op: 'pullFile', path, offset: 0, length: STAGE_CHUNK_BYTES }, timeoutMs);
    const read = (offset: number) => this.deviceContent(session, { op: 'pullFile', path, offset, length: STAGE_CHUNK_BYTES }, timeoutMs);
    async function* chunks(): AsyncGenerator<Buffer> {
      let piece = first;
      for (;;) {
        const data = Buffer.from(piece.base64, 'base64');
        if (data.length > 0) yield data;
        if (piece.eof || data.length === 0) return;
        piece = await read(piece.offset + data.length);
      }
    }
    return { size: first.size, chunks: chunks() };
  }

  /** Performs a control action and records it on the timeline. */
  async control(session: SessionRecord, caller: Partial<Caller>, action: ControlAction, via: 'api' | 'viewer'): Promise<RpcResult<'control'>> {
    const receivedAt = this.deps.now().toISOString();
    const result = await this.device(session, { op: 'control', action });
    const kind: ActivityKind = action.action === 'openUrl' || action.action === 'back' || action.action === 'home' ? 'navigation' : 'control';
    // Who sent it: several people may drive a shared session.
    const by = caller.userId === undefined ? null : { userId: caller.userId, name: await userName(this.deps.db, session.companyId, caller.userId) };
    const detail: Record<string, unknown> = { ...action, via, ...(by ? { by } : {}), ...(result.url ? { resultUrl: result.url } : {}) };
    if (action.action === 'text') {
      // A burst of typing (one typist's text, each input arriving within `typingBurstMs` of the end
      // of the one before) is one timeline entry; typed text can hold secrets, so the entry keeps its
      // length, not its content.
      const typist = `${via}:${caller.userId ?? ''}`;
      const characters = [...action.text].length;
      const command: SessionCommand = {
        type: 'RecordTyping',
        sessionId: session.id,
        activityId: randomUUID(),
        detail: { ...detail, text: typedText(characters) },
        by: typist,
        receivedAt,
        at: this.deps.now().toISOString(),
        characters,
        windowMs: this.deps.typingBurstMs,
      };
      await this.settle((await this.session(command, commandContext(this.deps, this.actor(caller)))).position);
    } else await this.recordActivity(session, caller, kind, detail);
    return result;
  }

  /** Captures the screen, keeps it as a screenshot artifact and returns the image. */
  async screenshot(session: SessionRecord, caller: Caller, requested?: 'png' | 'jpeg'): Promise<{ contentType: string; data: Buffer; artifactId: string }> {
    const format = requested ?? (this.deps.fleet ? (await this.deps.fleet.sessionDefaults(session.workspaceId)).screenshotFormat : 'png');
    const shot = await this.device(session, { op: 'screenshot', format });
    const data = Buffer.from(shot.base64, 'base64');
    const artifactId = randomUUID();
    await this.storeArtifact(session, caller, { artifactId, type: 'screenshot', name: `screenshot-${this.deps.now().toISOString()}.${format === 'png' ? 'png' : 'jpg'}`, contentType: shot.contentType, data });
    await this.recordActivity(session, caller, 'screenshot', { artifactId, width: shot.width, height: shot.height });
    return { contentType: shot.contentType, data, artifactId };
  }

  /** Stores bytes as an artifact of the session. */
  async storeArtifact(
    session: Pick<SessionRecord, 'id' | 'companyId'>,
    caller: Partial<Caller> & { actor?: string | number },
    artifact: { artifactId: string; type: ArtifactType; name: string; contentType: string; data: Buffer; size?: number },
  ): Promise<void> {
    const ext = artifact.contentType === 'image/png' ? 'png' : artifact.contentType === 'image/jpeg' ? 'jpg' : artifact.contentType.includes('json') ? 'json' : 'txt';
    const blobKey = artifactKey(session.companyId, session.id, artifact.artifactId, ext);
    const put = () => this.deps.blobs.put(blobKey, artifact.data, { contentType: artifact.contentType });
    // A recording's manifest finishes what was admitted when it started; everything else is a new store.
    const info = this.deps.fleet && artifact.type !== 'recording' ? await this.deps.fleet.withStorage(session.companyId, artifact.data.length, put) : await put();
    const result = await this.session(
      { type: 'StoreArtifact', sessionId: session.id, artifactId: artifact.artifactId, artifactType: artifact.type, name: artifact.name, blobKey, contentType: artifact.contentType, size: artifact.size ?? info.size },
      commandContext(this.deps, this.actor(caller)),
    );
    await this.settle(result.position);
  }

  /**
   * Starts recording the screen. A recording another replica runs (the session stream says one is
   * open) is answered with its id rather than started twice.
   */
  async startRecording(session: SessionRecord, caller: Caller): Promise<string> {
    if (session.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${session.status}`);
    const running = this.deps.hub.recordingStatus(session.id);
    if (running) return running.recordingId;
    await this.deps.fleet?.checkStorage(session.companyId);
    const open = fold(sessionDecider, await this.deps.store.readStream(sessionStream(session.id))).recordingId;
    if (open) {
      if (await this.recorderAlive(session.id)) return open;
      // The replica that recorded it is gone: what it stored is finished as a recording, and a new one starts.
      await this.stopRecording(session, 'system');
    }
    const recordingId = randomUUID();
    const target = { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id };
    const owner = { companyId: session.companyId, workspaceId: session.workspaceId };
    try {
      await this.deps.hub.startRecording(target, session.companyId, recordingId, this.deps.now(), async () => {
        await this.stopRecording({ id: session.id, ...owner }, 'system');
      });
    } catch (err) {
      throw deviceFailure(err, 'command');
    }
    const result = await this.session({ type: 'StartRecording', sessionId: session.id, recordingId }, commandContext(this.deps, this.actor(caller)));
    await this.settle(result.position);
    return recordingId;
  }

  /**
   * Stops a running recording and stores its manifest as a recording artifact. The replica recording
   * it does the work; another replica asks it over the bus, and finishes the recording from the
   * manifest in the blob store itself when no replica has it any more (it stopped or crashed).
   */
  async stopRecording(session: Pick<SessionRecord, 'id' | 'companyId' | 'workspaceId'>, actor: string | number): Promise<{ artifactId: string; frames: number } | null> {
    const recording = await this.deps.hub.stopRecording(session.id);
    let finished: RecordingManifest | null = recording
      ? { recordingId: recording.recordingId, startedAt: recording.startedAt, truncated: recording.truncated, bytes: recording.bytes, frames: recording.frames.map(({ index, at, size }) => ({ index, at, size })) }
      : null;
    if (!finished) {
      const recordingId = fold(sessionDecider, await this.deps.store.readStream(sessionStream(session.id))).recordingId;
      if (!recordingId) return null;
      try {
        await this.deps.bus.request(recordingStopSubject(session.id), new Uint8Array(), { timeoutMs: REMOTE_STOP_TIMEOUT_MS });
        await this.settle((await this.deps.store.readStream(sessionStream(session.id))).at(-1)?.position ?? null);
        return null;
      } catch {
        // Nobody records it any more: what was stored is the recording.
      }
      finished = (await this.deps.hub.storedManifest(session.companyId, session.id, recordingId)) ?? { recordingId, startedAt: this.deps.now().toISOString(), truncated: false, bytes: 0, frames: [] };
    }
    const artifactId = randomUUID();
    const { bytes, ...kept } = finished;
    const manifest = Buffer.from(JSON.stringify({ recordingId: kept.recordingId, startedAt: kept.startedAt, truncated: kept.truncated, frames: kept.frames }));
    const caller = { actor, companyId: session.companyId, workspaceId: session.workspaceId };
    await this.storeArtifact(session, caller, { artifactId, type: 'recording', name: `recording-${finished.recordingId}.json`, contentType: 'application/json', data: manifest, size: manifest.length + bytes });
    const result = await this.session({ type: 'StopRecording', sessionId: session.id, frames: finished.frames.length, artifactId }, commandContext(this.deps, this.actor(caller)));
    await this.settle(result.position);
    return { artifactId, frames: finished.frames.length };
  }

  /**
   * Whether some replica still records the session. Only a bus with nobody subscribed says no; a
   * replica too busy to answer in time counts as recording, so a live recording is never cut short.
   */
  private async recorderAlive(sessionId: string): Promise<boolean> {
    try {
      await this.deps.bus.request(recordingPingSubject(sessionId), new Uint8Array(), { timeoutMs: REMOTE_STOP_TIMEOUT_MS });
      return true;
    } catch (err) {
      return !(err instanceof NoRespondersError);
    }
  }

  /**
   * The recording state as any replica sees it: running or not from the session (the event stream),
   * the frame count from this replica's memory when it records, else from the manifest in the blob store.
   * A recording whose replica is gone is finished here from what it stored, so it does not read as
   * running for ever.
   */
  async recordingStatus(session: SessionRecord): Promise<{ recording: boolean; recordingId: string | null; startedAt: string | null; frames: number; truncated: boolean; lastArtifactId: string | null }> {
    const live = this.deps.hub.recordingStatus(session.id);
    const base = { lastArtifactId: session.recording.artifactId };
    if (live) return { recording: true, recordingId: live.recordingId, startedAt: live.startedAt, frames: live.frames, truncated: live.truncated, ...base };
    const recordingId = session.recording.recordingId;
    if (!recordingId) return { recording: false, recordingId: null, startedAt: null, frames: session.recording.frames ?? 0, truncated: false, ...base };
    if (!(await this.recorderAlive(session.id))) {
      const finished = await this.stopRecording(session, 'system');
      return { recording: false, recordingId: null, startedAt: null, frames: finished?.frames ?? 0, truncated: false, lastArtifactId: finished?.artifactId ?? base.lastArtifactId };
    }
    const stored = await this.deps.hub.storedManifest(session.companyId, session.id, recordingId);
    return { recording: true, recordingId, startedAt: stored?.startedAt ?? session.recording.startedAt ?? null, frames: stored?.frames.length ?? 0, truncated: stored?.truncated ?? false, ...base };
  }

  /** Live device logs of an open session; the stored log artifact of an ended one. */
  async logs(session: SessionRecord, afterSeq: number): Promise<RpcResult<'logs'>> {
    if (session.status === 'active') return this.device(session, { op: 'logs', afterSeq });
    const [artifact] = await listArtifacts(this.deps.db, session.id, ['log']);
    if (!artifact) return { entries: [], lastSeq: 0 };
    const blob = await this.deps.blobs.get(artifact.blobKey);
    if (!blob) return { entries: [], lastSeq: 0 };
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    const stored = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcResult<'logs'>;
    return { entries: stored.entries.filter((e) => e.seq > afterSeq), lastSeq: stored.lastSeq };
  }

  private async collectLogs(session: Pick<SessionRecord, 'id' | 'companyId'>, target: { hostId: string; deviceId: string; sessionId: string }, context: CommandContext): Promise<void> {
    try {
      const logs = await requestDevice(this.deps.bus, target, { op: 'logs', afterSeq: 0 }, { timeoutMs: LOGS_TIMEOUT_MS });
      if (logs.entries.length === 0) return;
      await this.storeArtifact(session, { actor: context.actorId ?? 'system', companyId: context.companyId ?? undefined, workspaceId: context.workspaceId ?? undefined } as Partial<Caller> & { actor: string }, {
        artifactId: randomUUID(),
        type: 'log',
        name: 'device-log.json',
        contentType: 'application/json',
        data: Buffer.from(JSON.stringify(logs)),
      });
    } catch (err) {
      this.deps.logger.info({ err: (err as Error).message, sessionId: session.id }, 'device logs could not be collected at the end');
    }
  }

  private async sweepIdle(): Promise<void> {
    const now = this.deps.now().getTime();
    for (const session of await idleSessions(this.deps.db, new Date(now - this.deps.idleTimeoutMs))) {
      // A session still being prepared is not idle; its creation answers either way.
      if (session.status !== 'active') continue;
      // A workspace may keep its sessions longer than the module's default (its session defaults).
      const idleMs = this.deps.fleet ? await this.deps.fleet.idleTimeoutMs(session.workspaceId) : this.deps.idleTimeoutMs;
      if (Date.parse(session.lastActivityAt) > now - idleMs) continue;
      this.deps.logger.info({ sessionId: session.id }, 'ending an idle session');
      await this.end(session, 'idle-timeout', 'system').catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'ending an idle session failed'));
    }
    // A session left `starting` far past the prepare time-out lost its creator (a crash mid-create).
    for (const session of await idleSessions(this.deps.db, new Date(now - this.deps.prepareTimeoutMs - STUCK_GRACE_MS))) {
      if (session.status !== 'starting') continue;
      await this.end(session, 'prepare-abandoned', 'system').catch((err: unknown) => this.deps.logger.warn({ err, sessionId: session.id }, 'ending an abandoned session failed'));
    }
  }
}
