import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { BlobStore } from '#shared/blob/index.js';
import type { BusSubscription, MessageBus } from '#shared/bus/index.js';
import { setIntervalOutsideTrace } from '#shared/tracing/index.js';
import { decodeFrame, requestDevice, subjects, type DeviceTarget, type Frame } from '#shared/wire/index.js';
import { newRecording, RecordingWriter, recordingPingSubject, recordingStopSubject, unsubscribeRecording, type RecordedFrame, type Recording, type RecordingManifest } from './screen-recording.js';

// A session's recording (its frames and manifest in the blob store) is screen-recording.ts.
export { recordingFrameKey, recordingManifestKey, recordingPingSubject, recordingStopSubject, type RecordedFrame, type RecordingManifest } from './screen-recording.js';

/** One connected viewer of a session's screen. */
export interface Viewer {
  id: string;
  userId: number;
  /** The user's display name, shown to the other viewers. */
  name: string;
  /** Watch only, or also send input. */
  access: 'view' | 'control';
  since: string;
  /** Hands a frame over; a slow viewer drops it instead of queueing (see the ws route). */
  sendFrame(frame: Frame): void;
  sendJson(message: Record<string, unknown>): void;
  close(code: number, reason: string): void;
  stats(): { framesSent: number; framesDropped: number };
}

/** A user watching a session, as the viewers list and the presence messages show them. */
export interface PresentViewer {
  userId: number;
  name: string;
  access: 'view' | 'control';
  connectedAt: string;
  connections: number;
}

interface LiveSession {
  target: DeviceTarget;
  companyId: number;
  consumerId: string;
  viewers: Map<string, Viewer>;
  recording: Recording | null;
  subscription: BusSubscription | null;
  renew: NodeJS.Timeout | null;
  latest: Frame | null;
  starting: Promise<void> | null;
}

const LEASE_MS = 15_000;
/** Every replica closes the sockets of a viewer disconnected on any of them. */
export const VIEWER_DISCONNECT_SUBJECT = 'df.service.viewers.disconnect';

/**
 * The live screen of sessions: one frame subscription and one screencast lease per session while it has
 * viewers or a recording, fanned out to every viewer. Frames come from the agent over the bus.
 */
export class ScreenHub {
  private readonly sessions = new Map<string, LiveSession>();
  /** This replica's id, so it skips its own disconnect broadcasts. */
  private readonly replicaId = randomUUID();
  private disconnects: BusSubscription | null = null;

  private readonly recorder: RecordingWriter;

  constructor(
    private readonly deps: { bus: MessageBus; blobs: BlobStore; logger: Logger; commandTimeoutMs: number },
  ) {
    this.recorder = new RecordingWriter(deps);
  }

  /** Listens for viewers disconnected on another replica (their sockets here close too). */
  async start(): Promise<void> {
    this.disconnects ??= await this.deps.bus.subscribe(VIEWER_DISCONNECT_SUBJECT, (msg) => {
      try {
        const m = JSON.parse(new TextDecoder().decode(msg.data)) as { replicaId: string; sessionId: string; userId: number; code: string; message: string };
        if (m.replicaId !== this.replicaId) this.disconnectUser(m.sessionId, m.userId, { code: m.code, message: m.message });
      } catch (err) {
        this.deps.logger.warn({ err }, 'a viewer disconnect broadcast could not be read');
      }
    });
  }

  /**
   * Closes one user's viewer sockets on every replica: here at once (the count answered), elsewhere
   * when the broadcast arrives. Reconnects are refused by the access check, not by this.
   */
  async disconnectEverywhere(sessionId: string, userId: number, why?: { code: string; message: string }): Promise<number> {
    const reason = why ?? { code: 'SESSION_ACCESS_WITHDRAWN', message: "The session's owner disconnected you from this session" };
    const here = this.disconnectUser(sessionId, userId, reason);
    const payload = { replicaId: this.replicaId, sessionId, userId, ...reason };
    await this.deps.bus.publish(VIEWER_DISCONNECT_SUBJECT, new TextEncoder().encode(JSON.stringify(payload))).catch((err: unknown) =>
      this.deps.logger.warn({ err, sessionId }, 'broadcasting a viewer disconnect failed'),
    );
    return here;
  }

  /** Adds a viewer and makes sure the screen streams; tells every viewer who is watching. */
  async join(target: DeviceTarget, companyId: number, viewer: Viewer): Promise<void> {
    const live = this.live(target, companyId);
    live.viewers.set(viewer.id, viewer);
    this.announce(live);
    if (live.latest) viewer.sendFrame(live.latest);
    await this.ensureStreaming(live);
  }

  /** Removes a viewer; the stream stops when nobody watches and nothing records. */
  async leave(sessionId: string, viewerId: string): Promise<void> {
    const live = this.sessions.get(sessionId);
    if (!live || !live.viewers.delete(viewerId)) return;
    this.announce(live);
    await this.stopIfIdle(live);
  }

  /** The sessions with a viewer connected to this replica now (they have a live holder: the watchdog). */
  watched(): string[] {
    return [...this.sessions.entries()].filter(([, live]) => live.viewers.size > 0).map(([id]) => id);
  }

  /**
   * Who watches a session now, one entry per user (oldest first): their strongest access, when their
   * first open connection came, and how many connections they have open.
   */
  viewers(sessionId: string): PresentViewer[] {
    const byUser = new Map<number, PresentViewer>();
    for (const v of this.sessions.get(sessionId)?.viewers.values() ?? []) {
      const seen = byUser.get(v.userId);
      if (!seen) {
        byUser.set(v.userId, { userId: v.userId, name: v.name, access: v.access, connectedAt: v.since, connections: 1 });
        continue;
      }
      seen.connections++;
      if (v.access === 'control') seen.access = 'control';
      if (v.since < seen.connectedAt) seen.connectedAt = v.since;
    }
    return [...byUser.values()].sort((a, b) => a.connectedAt.localeCompare(b.connectedAt) || a.userId - b.userId);
  }

  /** Each viewer connection of a session now, with its frame counts. */
  connections(sessionId: string): { viewerId: string; userId: number; access: 'view' | 'control'; since: string; framesSent: number; framesDropped: number }[] {
    return [...(this.sessions.get(sessionId)?.viewers.values() ?? [])].map((v) => ({ viewerId: v.id, userId: v.userId, access: v.access, since: v.since, ...v.stats() }));
  }

  /**
   * Closes one user's viewer sockets at once (close code 4403 with the reason's code, an `error` message before it);
   * returns how many. They leave, and the others are told.
   */
  disconnectUser(sessionId: string, userId: number, why: { code: string; message: string } = { code: 'SESSION_ACCESS_WITHDRAWN', message: "The session's owner disconnected you from this session" }): number {
    const live = this.sessions.get(sessionId);
    if (!live) return 0;
    let n = 0;
    for (const v of [...live.viewers.values()]) {
      if (v.userId !== userId) continue;
      v.sendJson({ type: 'error', code: why.code, message: why.message });
      v.close(4403, why.code);
      live.viewers.delete(v.id);
      n++;
    }
    if (n > 0) {
      this.announce(live);
      void this.stopIfIdle(live).catch((err: unknown) => this.deps.logger.warn({ err, sessionId }, 'stopping an idle screen failed'));
    }
    return n;
  }

  /**
   * Starts a recording of the session; returns false when one runs already. Its manifest (rewritten
   * each second) goes to the blob store, so every replica can report and finish the recording;
   * `onRemoteStop` runs when another replica asks this one to stop it. It keeps no frames: the device's
   * host encodes the video itself, and `keepFrames` is asked for only when it cannot.
   */
  async startRecording(target: DeviceTarget, companyId: number, recordingId: string, now: Date, onRemoteStop?: () => Promise<void>): Promise<boolean> {
    const live = this.live(target, companyId);
    if (live.recording) return false;
    const recording = newRecording(recordingId, now);
    live.recording = recording;
    try {
      if (onRemoteStop) {
        recording.stopSubscription = await this.deps.bus.subscribe(recordingStopSubject(target.sessionId), (msg) => {
          if (live.recording !== recording && !recording.stopping) return;
          onRemoteStop()
            .then(() => this.deps.bus.respond(msg, new TextEncoder().encode(JSON.stringify({ stopped: recordingId }))))
            .catch((err: unknown) => this.deps.logger.warn({ err, sessionId: target.sessionId }, 'stopping a recording for another replica failed'));
        });
      }
      recording.pingSubscription = await this.deps.bus.subscribe(recordingPingSubject(target.sessionId), (msg) => {
        if ((live.recording !== recording && !recording.stopping) || !msg.reply) return;
        this.deps.bus.respond(msg, new TextEncoder().encode(JSON.stringify({ recordingId }))).catch(() => undefined);
      });
      this.recorder.writeManifest(live, recording);
    } catch (err) {
      live.recording = null;
      await unsubscribeRecording(recording);
      throw err;
    }
    return true;
  }

  /**
   * Keeps the screen's JPEG frames (at most 5 a second) in the session's running recording: its host
   * cannot encode a video, so the frames come over the bus as they do for viewers.
   */
  async keepFrames(sessionId: string, recordingId: string): Promise<void> {
    const live = this.sessions.get(sessionId);
    const recording = live?.recording;
    if (!live || recording?.recordingId !== recordingId) return;
    recording.keepFrames = true;
    await this.ensureStreaming(live);
  }

  /** The manifest of a recording as last written to the blob store, or null. */
  storedManifest(companyId: number, sessionId: string, recordingId: string): Promise<RecordingManifest | null> {
    return this.recorder.storedManifest(companyId, sessionId, recordingId);
  }

  /** The running recording, if any. */
  recordingStatus(sessionId: string): { recordingId: string; startedAt: string; frames: number; truncated: boolean } | null {
    const r = this.sessions.get(sessionId)?.recording;
    return r ? { recordingId: r.recordingId, startedAt: r.startedAt, frames: r.frames.length, truncated: r.truncated } : null;
  }

  /**
   * Stops the recording and returns its frames once they are all stored. It still answers other
   * replicas (it is stopping, not gone) until `releaseRecording` says its end is recorded.
   */
  async stopRecording(sessionId: string): Promise<(Recording & { frames: RecordedFrame[] }) | null> {
    const live = this.sessions.get(sessionId);
    const recording = live?.recording;
    if (!live || !recording) return null;
    live.recording = null;
    recording.stopping = true;
    if (recording.flush) clearTimeout(recording.flush);
    try {
      this.recorder.keepPending(live, recording);
      this.recorder.writeManifest(live, recording);
      await recording.writes;
      await this.stopIfIdle(live);
    } catch (err) {
      await this.releaseRecording(recording);
      throw err;
    }
    return recording;
  }

  /** A stopped recording's end is recorded (or failed to be): it no longer answers other replicas. */
  async releaseRecording(recording: Recording): Promise<void> {
    recording.stopping = false;
    await unsubscribeRecording(recording);
  }

  /** Sends a message to every viewer of a session connected to this replica; returns how many. */
  notify(sessionId: string, message: Record<string, unknown>): number {
    let n = 0;
    for (const v of this.sessions.get(sessionId)?.viewers.values() ?? []) {
      v.sendJson(message);
      n++;
    }
    return n;
  }

  /** Ends everything live about a session: viewers are told why and disconnected. */
  async closeSession(sessionId: string, reason: string): Promise<void> {
    const live = this.sessions.get(sessionId);
    if (!live) return;
    for (const v of live.viewers.values()) {
      v.sendJson({ type: 'ended', reason });
      v.close(4000, 'session ended');
    }
    live.viewers.clear();
    const recording = live.recording;
    live.recording = null;
    if (recording?.flush) clearTimeout(recording.flush);
    if (recording?.pendingTimer) clearTimeout(recording.pendingTimer);
    if (recording) await unsubscribeRecording(recording);
    await this.stopIfIdle(live);
  }

  /** Closes every live session (shutdown). */
  async stop(): Promise<void> {
    const disconnects = this.disconnects;
    this.disconnects = null;
    await disconnects?.unsubscribe().catch(() => undefined);
    for (const sessionId of [...this.sessions.keys()]) await this.closeSession(sessionId, 'service stopping');
  }

  private live(target: DeviceTarget, companyId: number): LiveSession {
    let live = this.sessions.get(target.sessionId);
    if (!live) {
      live = { target, companyId, consumerId: randomUUID(), viewers: new Map(), recording: null, subscription: null, renew: null, latest: null, starting: null };
      this.sessions.set(target.sessionId, live);
    }
    return live;
  }

  private announce(live: LiveSession): void {
    const viewers = this.viewers(live.target.sessionId);
    for (const v of live.viewers.values()) v.sendJson({ type: 'viewers', viewers });
  }

  private async ensureStreaming(live: LiveSession): Promise<void> {
    if (live.subscription) return;
    live.starting ??= (async () => {
      const { target } = live;
      live.subscription = await this.deps.bus.subscribe(subjects.frames(target.hostId, target.deviceId), (msg) => {
        let frame: Frame;
        try {
          frame = decodeFrame(msg.data, msg.headers);
        } catch {
          return;
        }
        if (frame.sessionId !== target.sessionId) return;
        this.onFrame(live, frame);
      });
      try {
        await this.lease(live);
      } catch (err) {
        await live.subscription.unsubscribe();
        live.subscription = null;
        throw err;
      }
      live.renew = setIntervalOutsideTrace(() => {
        this.lease(live).catch((err: unknown) => this.deps.logger.debug({ err, sessionId: target.sessionId }, 'screencast lease renewal failed'));
      }, LEASE_MS / 3);
      live.renew.unref();
    })().finally(() => (live.starting = null));
    await live.starting;
  }

  private lease(live: LiveSession): Promise<unknown> {
    return requestDevice(this.deps.bus, live.target, { op: 'screencast', consumerId: live.consumerId, leaseMs: LEASE_MS, quality: 60 }, { timeoutMs: this.deps.commandTimeoutMs });
  }

  private onFrame(live: LiveSession, frame: Frame): void {
    live.latest = frame;
    for (const v of live.viewers.values()) v.sendFrame(frame);
    this.recorder.offer(live, frame);
  }

  private async stopIfIdle(live: LiveSession): Promise<void> {
    if (live.viewers.size > 0 || live.recording) return;
    this.sessions.delete(live.target.sessionId);
    await live.starting?.catch(() => undefined);
    if (live.renew) clearInterval(live.renew);
    const subscription = live.subscription;
    live.subscription = null;
    await subscription?.unsubscribe().catch(() => undefined);
    await requestDevice(this.deps.bus, live.target, { op: 'stopScreencast', consumerId: live.consumerId }, { timeoutMs: 5_000 }).catch(() => undefined);
  }
}
