import { PassThrough } from 'node:stream';
import { sessionById, type SessionRecord } from '#projections/df-sessions/index.js';
import type { BusMessage, BusSubscription } from '#shared/bus/index.js';
import { fold } from '#shared/es/index.js';
import { fail, ok, requestDevice, subjects } from '#shared/wire/index.js';
import { sessionStream } from '#events/df/sessions.js';
import { videoFileKey, videoFolder, videoProgressKey, videoSegmentKey } from '../core/blob-keys.js';
import { sessionDecider } from './decide.js';
import type { SessionDeps } from './deps.js';

/** The agent ends its encoder and sends the last segment within this time, or is taken as gone. */
const STOP_VIDEO_TIMEOUT_MS = 30_000;
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** What a stored video amounts to. */
export interface StoredVideo {
  format: 'mp4';
  durationMs: number;
  bytes: number;
}

interface Progress {
  segments: number;
  durationMs: number;
  bytes: number;
}

/**
 * Session videos on the service's side: the segments the device hosts send while a recording runs go
 * to the blob store as they come (any replica takes them, one each), and a recording's end joins them
 * into one fragmented MP4, from whatever was stored when its host is gone.
 */
export class SessionVideos {
  private subscription: BusSubscription | null = null;

  constructor(private readonly deps: Pick<SessionDeps, 'bus' | 'blobs' | 'db' | 'store' | 'logger'>) {}

  /** Takes the segments of every host (one replica of the service each). */
  async start(): Promise<void> {
    this.subscription ??= await this.deps.bus.subscribe(subjects.anyVideo(), (msg) => this.receive(msg), { queue: 'df-video' });
  }

  async stop(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.unsubscribe().catch(() => undefined);
  }

  /** Asks the host to start encoding the recording; a host that cannot (no ffmpeg) answers why, and the recording goes on without video. */
  async startOnHost(session: Pick<SessionRecord, 'id' | 'hostId' | 'deviceId'>, recordingId: string, startedAt: Date, timeoutMs: number): Promise<boolean> {
    try {
      await requestDevice(this.deps.bus, { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id }, { op: 'startVideo', recordingId, startedAt: startedAt.getTime() }, { timeoutMs });
      return true;
    } catch (err) {
      this.deps.logger.info({ err: (err as Error).message, sessionId: session.id }, 'the host records no video of this session');
      return false;
    }
  }

  /**
   * Ends the recording's video: the host closes it and sends its last segment (a host that is gone
   * sends nothing more), then the stored segments become one file and are removed. Null when no
   * segment was stored.
   */
  async finish(session: Pick<SessionRecord, 'id' | 'companyId'> & Partial<Pick<SessionRecord, 'hostId' | 'deviceId'>>, recordingId: string): Promise<StoredVideo | null> {
    if (session.hostId && session.deviceId) {
      await requestDevice(this.deps.bus, { hostId: session.hostId, deviceId: session.deviceId, sessionId: session.id }, { op: 'stopVideo', recordingId }, { timeoutMs: STOP_VIDEO_TIMEOUT_MS }).catch((err: unknown) =>
        this.deps.logger.info({ err: (err as Error).message, sessionId: session.id }, 'the host did not end the video; what it sent is the video'),
      );
    }
    const existing = await this.deps.blobs.stat(videoFileKey(session.companyId, session.id, recordingId));
    const progress = await this.progress(session.companyId, session.id, recordingId);
    if (!progress || progress.segments === 0) return existing ? { format: 'mp4', durationMs: 0, bytes: existing.size } : null;
    const joined = new PassThrough();
    const feed = (async () => {
      for (let seq = 1; seq <= progress.segments; seq++) {
        const segment = await this.deps.blobs.get(videoSegmentKey(session.companyId, session.id, recordingId, seq));
        // A segment lost on its way ends the video there: what follows cannot be read without it.
        if (!segment) break;
        for await (const chunk of segment.stream) if (!joined.write(chunk)) await new Promise((resolve) => joined.once('drain', resolve));
      }
      joined.end();
    })().catch((err: unknown) => joined.destroy(err as Error));
    const info = await this.deps.blobs.put(videoFileKey(session.companyId, session.id, recordingId), joined, { contentType: 'video/mp4' });
    await feed;
    await this.deps.blobs.deleteFolder(`${videoFolder(session.companyId, session.id, recordingId)}/segments`);
    return { format: 'mp4', durationMs: progress.durationMs, bytes: info.size };
  }

  private async progress(companyId: number, sessionId: string, recordingId: string): Promise<Progress | null> {
    const blob = await this.deps.blobs.get(videoProgressKey(companyId, sessionId, recordingId));
    if (!blob) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Progress;
  }

  /**
   * One segment from a host: stored when it is of a recording that runs on a session the sending host's
   * device holds, refused otherwise (a host writes only into its own sessions' videos).
   */
  private async receive(msg: BusMessage): Promise<void> {
    const answer = (data: Uint8Array) => (msg.reply ? this.deps.bus.respond(msg, data).catch(() => undefined) : Promise.resolve());
    const parts = msg.subject.split('.');
    const [hostId, deviceId] = [parts[2], parts[4]];
    const h = msg.headers ?? {};
    const seq = Number(h.seq);
    const durationMs = Number(h.durationMs);
    if (!h.sessionId || !h.recordingId || !TOKEN.test(h.sessionId) || !TOKEN.test(h.recordingId) || !Number.isInteger(seq) || seq < 1 || !Number.isFinite(durationMs) || durationMs < 0) {
      await answer(fail('BAD_REQUEST', 'A video segment needs sessionId, recordingId, seq and durationMs headers'));
      return;
    }
    try {
      const session = await sessionById(this.deps.db, h.sessionId);
      const open = session ? fold(sessionDecider, await this.deps.store.readStream(sessionStream(session.id))).recordingId : null;
      if (!session || session.hostId !== hostId || session.deviceId !== deviceId || open !== h.recordingId) {
        await answer(fail('NOT_PREPARED', 'No recording of this device runs under that id'));
        return;
      }
      const { companyId } = session;
      await this.deps.blobs.put(videoSegmentKey(companyId, session.id, h.recordingId, seq), Buffer.from(msg.data), { contentType: 'video/iso.segment' });
      const before = await this.progress(companyId, session.id, h.recordingId);
      const progress: Progress = { segments: Math.max(before?.segments ?? 0, seq), durationMs: Math.max(before?.durationMs ?? 0, Math.round(durationMs)), bytes: (before?.bytes ?? 0) + msg.data.byteLength };
      await this.deps.blobs.put(videoProgressKey(companyId, session.id, h.recordingId), Buffer.from(JSON.stringify(progress)), { contentType: 'application/json' });
      await answer(ok({ stored: seq }));
    } catch (err) {
      this.deps.logger.warn({ err, sessionId: h.sessionId }, 'storing a video segment failed');
      await answer(fail('DEVICE_ERROR', 'The segment could not be stored'));
    }
  }
}
