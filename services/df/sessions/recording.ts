import { randomUUID } from 'node:crypto';
import type { SessionRecord } from '#projections/df-sessions/index.js';
import { NoRespondersError } from '#shared/bus/index.js';
import { fold } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { sessionStream } from '#events/df/sessions.js';
import type { Caller } from '../http.js';
import { deviceFailure } from '../core/device-errors.js';
import { recordingPingSubject, recordingStopSubject, type RecordingManifest } from '../core/screen-hub.js';
import type { SessionArtifacts } from './artifacts.js';
import { sessionDecider } from './decide.js';
import type { SessionDeps } from './deps.js';
import type { SessionVideos, StoredVideo } from './video.js';
import type { SessionWrites } from './writes.js';

/** A recording's state as `recording/status` answers it. */
export interface RecordingStatus {
  recording: boolean;
  recordingId: string | null;
  startedAt: string | null;
  frames: number;
  truncated: boolean;
  lastArtifactId: string | null;
  /** The session's stored video (its last recording's), or null; `expired`: removed by the workspace's video retention at `expiredAt`. */
  video: (StoredVideo & { expired: boolean; expiredAt: string | null }) | null;
}

/** What `stopRecording` is given: the session, with its device when the caller knows it. */
type StoppingSession = Pick<SessionRecord, 'id' | 'companyId' | 'workspaceId'> & Partial<Pick<SessionRecord, 'hostId' | 'deviceId'>>;

/** A recording stopped and recorded: its manifest's artifact, its frame count and its video, if any. */
interface StoppedRecording {
  artifactId: string;
  frames: number;
  video: StoredVideo | null;
}

/** The status once a stop is done: the stop's own result, else what the session (as read) holds. */
function stoppedStatus(finished: StoppedRecording | null, session: SessionRecord): RecordingStatus {
  return {
    recording: false,
    recordingId: null,
    startedAt: null,
    frames: finished?.frames ?? 0,
    truncated: false,
    lastArtifactId: finished?.artifactId ?? session.recording.artifactId,
    video: finished?.video ? { ...finished.video, expired: false, expiredAt: null } : heldVideo(session),
  };
}

/** The session's stored video as the status shows it. */
function heldVideo(session: SessionRecord): RecordingStatus['video'] {
  const v = session.video;
  return v ? { format: v.format, durationMs: v.durationMs, bytes: v.bytes, expired: v.expiredAt !== null, expiredAt: v.expiredAt } : null;
}

// Another replica that records a session answers a stop request within this time, or is gone.
const REMOTE_STOP_TIMEOUT_MS = 10_000;

/**
 * Recording a session's screen: one replica records (the screen hub), any replica starts, stops or
 * reads it, and a recording whose replica is gone is finished from what it stored.
 */
export class SessionRecordings {
  /** Stops under way on this replica, by session: a second stop, or a status read, waits for the first. */
  private readonly stopping = new Map<string, Promise<StoppedRecording | null>>();

  constructor(
    private readonly deps: Pick<SessionDeps, 'store' | 'bus' | 'hub' | 'fleet' | 'now' | 'logger' | 'commandTimeoutMs'>,
    private readonly writes: SessionWrites,
    private readonly artifacts: SessionArtifacts,
    private readonly videos: SessionVideos,
  ) {}

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
    // The recording's start is the video's time 0 too (its chapters are placed from it).
    const startedAt = this.deps.now();
    const target = { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id };
    const owner = { companyId: session.companyId, workspaceId: session.workspaceId };
    try {
      await this.deps.hub.startRecording(target, session.companyId, recordingId, startedAt, async () => {
        await this.stopRecording({ id: session.id, hostId: session.hostId, deviceId: session.deviceId, ...owner }, 'system');
      });
    } catch (err) {
      throw deviceFailure(err, 'command');
    }
    await this.writes.runAs({ type: 'StartRecording', sessionId: session.id, recordingId }, caller);
    // The host encodes the video from its own frames (its segments are taken by SessionVideos); a host
    // that cannot (no ffmpeg, videos off) says so, and only then do the screen's frames come over the
    // bus to be kept as the recording.
    if (!(await this.videos.startOnHost(session, recordingId, startedAt, this.deps.commandTimeoutMs))) {
      try {
        await this.deps.hub.keepFrames(session.id, recordingId);
      } catch (err) {
        await this.stopRecording({ id: session.id, hostId: session.hostId, deviceId: session.deviceId, ...owner }, 'system').catch(() => undefined);
        throw deviceFailure(err, 'command');
      }
    }
    return recordingId;
  }

  /**
   * Stops a running recording and stores its manifest as a recording artifact. The replica recording
   * it does the work; another replica asks it over the bus, and finishes the recording from the
   * manifest in the blob store itself when no replica has it any more (it stopped or crashed).
   */
  stopRecording(session: StoppingSession, actor: string | number): Promise<StoppedRecording | null> {
    const under = this.stopping.get(session.id);
    if (under) return under;
    const stop = this.stop(session, actor).finally(() => this.stopping.delete(session.id));
    this.stopping.set(session.id, stop);
    return stop;
  }

  private async stop(session: StoppingSession, actor: string | number): Promise<StoppedRecording | null> {
    const recording = await this.deps.hub.stopRecording(session.id);
    try {
      return await this.finish(session, actor, recording);
    } finally {
      if (recording) await this.deps.hub.releaseRecording(recording);
    }
  }

  private async finish(session: StoppingSession, actor: string | number, recording: Awaited<ReturnType<SessionDeps['hub']['stopRecording']>>): Promise<StoppedRecording | null> {
    let finished: RecordingManifest | null = recording
      ? { recordingId: recording.recordingId, startedAt: recording.startedAt, truncated: recording.truncated, bytes: recording.bytes, frames: recording.frames.map(({ index, at, size }) => ({ index, at, size })) }
      : null;
    if (!finished) {
      const recordingId = fold(sessionDecider, await this.deps.store.readStream(sessionStream(session.id))).recordingId;
      if (!recordingId) return null;
      try {
        await this.deps.bus.request(recordingStopSubject(session.id), new Uint8Array(), { timeoutMs: REMOTE_STOP_TIMEOUT_MS });
        await this.writes.settle((await this.deps.store.readStream(sessionStream(session.id))).at(-1)?.position ?? null);
        return null;
      } catch {
        // Nobody records it any more: what was stored is the recording.
      }
      finished = (await this.deps.hub.storedManifest(session.companyId, session.id, recordingId)) ?? { recordingId, startedAt: this.deps.now().toISOString(), truncated: false, bytes: 0, frames: [] };
    }
    const video = await this.videos.finish(session, finished.recordingId).catch((err: unknown) => {
      this.deps.logger.warn({ err, sessionId: session.id }, 'joining the video failed');
      return null;
    });
    const artifactId = randomUUID();
    const { bytes, ...kept } = finished;
    const manifest = Buffer.from(JSON.stringify({ recordingId: kept.recordingId, startedAt: kept.startedAt, truncated: kept.truncated, frames: kept.frames }));
    const caller = { actor, companyId: session.companyId, workspaceId: session.workspaceId };
    await this.artifacts.storeArtifact(session, caller, { artifactId, type: 'recording', name: `recording-${finished.recordingId}.json`, contentType: 'application/json', data: manifest, size: manifest.length + bytes });
    await this.writes.runAs({ type: 'StopRecording', sessionId: session.id, frames: finished.frames.length, artifactId, ...(video ? { video } : {}) }, caller);
    return { artifactId, frames: finished.frames.length, video };
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
  async recordingStatus(session: SessionRecord): Promise<RecordingStatus> {
    const under = this.stopping.get(session.id);
    if (under) return stoppedStatus(await under, session);
    const live = this.deps.hub.recordingStatus(session.id);
    const base = { lastArtifactId: session.recording.artifactId, video: heldVideo(session) };
    if (live) return { recording: true, recordingId: live.recordingId, startedAt: live.startedAt, frames: live.frames, truncated: live.truncated, ...base };
    const recordingId = session.recording.recordingId;
    if (!recordingId) return { recording: false, recordingId: null, startedAt: null, frames: session.recording.frames ?? 0, truncated: false, ...base };
    if (!(await this.recorderAlive(session.id))) return stoppedStatus(await this.stopRecording(session, 'system'), session);
    const stored = await this.deps.hub.storedManifest(session.companyId, session.id, recordingId);
    return { recording: true, recordingId, startedAt: stored?.startedAt ?? session.recording.startedAt ?? null, frames: stored?.frames.length ?? 0, truncated: stored?.truncated ?? false, ...base };
  }
}
